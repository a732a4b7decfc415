// The server's icon in serverInfo: bands of the heatmap's colour ramp under a rising price line
// (src/server-icon-svg.ts); `npm run docs` renders the PNGs from that SVG (scripts/generate-icon.ts):
// 32 px for serverInfo, 512 px as assets/icon.png for the bundle's manifest.
import { ICON_PNG_32 } from "./server-icon-png.js";

/** PNG, the format every client that shows icons reads (an SVG too would grow each of the four recorded handshakes). */
export const SERVER_ICONS = [{ src: `data:image/png;base64,${ICON_PNG_32}`, mimeType: "image/png", sizes: ["32x32"] }];
