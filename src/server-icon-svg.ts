// The server's icon, drawn here (no external URL): bands of the heatmap's colour ramp under a rising
// price line. scripts/generate-icon.ts renders it to PNG; src/server-icon.ts gives it to serverInfo.
export const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
  '<rect width="64" height="64" rx="14" fill="#1b1d36"/>' +
  '<rect x="24" y="14" width="26" height="6" rx="3" fill="#fde725"/>' +
  '<rect x="14" y="24" width="40" height="6" rx="3" fill="#5ec962"/>' +
  '<rect x="10" y="34" width="44" height="6" rx="3" fill="#21918c"/>' +
  '<rect x="10" y="44" width="32" height="6" rx="3" fill="#3b528b"/>' +
  '<path d="M9 52 L21 39 L31 45 L44 25 L55 17" fill="none" stroke="#ffffff" stroke-width="4" stroke-linecap="round" stroke-linejoin="round"/>' +
  "</svg>";
