// The server's icon in serverInfo: bands of the heatmap's colour ramp under a rising price line
// (src/server-icon-svg.ts), as data URIs, PNG (which every icon-rendering client reads)
// and SVG; `npm run docs` renders the PNGs from this SVG (scripts/generate-icon.ts): 32 px for
// serverInfo, 128 px as assets/icon.png for the bundle's manifest.
import { ICON_PNG_32 } from "./server-icon-png.js";
import { ICON_SVG } from "./server-icon-svg.js";

export const SERVER_ICONS = [
  { src: `data:image/png;base64,${ICON_PNG_32}`, mimeType: "image/png", sizes: ["32x32"] },
  { src: `data:image/svg+xml;base64,${Buffer.from(ICON_SVG).toString("base64")}`, mimeType: "image/svg+xml", sizes: ["any"] },
];
