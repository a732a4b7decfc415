// A resource template matcher that accepts optional query parameters in any order.
import { UriTemplate, type Variables } from "@modelcontextprotocol/server";

/**
 * The SDK's matcher wants every `{?a,b}` parameter present and in order; ours matches the path part
 * with the SDK and then reads whichever query parameters the template names, in any order.
 * toString() stays the full RFC 6570 template, which is what clients list and complete against.
 */
export class QueryTolerantTemplate extends UriTemplate {
  private readonly pathTemplate: UriTemplate;
  private readonly queryNames: ReadonlySet<string>;

  constructor(template: string) {
    super(template);
    const cut = template.indexOf("{?");
    this.pathTemplate = new UriTemplate(cut === -1 ? template : template.slice(0, cut));
    this.queryNames = new Set(cut === -1 ? [] : template.slice(cut + 2, template.indexOf("}", cut)).split(","));
  }

  override match(uri: string): Variables | null {
    const q = uri.indexOf("?");
    const vars = this.pathTemplate.match(q === -1 ? uri : uri.slice(0, q));
    if (!vars) return null;
    const decoded: Variables = {};
    for (const [k, v] of Object.entries(vars)) decoded[k] = typeof v === "string" ? safeDecode(v) : v.map(safeDecode);
    if (q !== -1) {
      for (const [name, value] of new URLSearchParams(uri.slice(q + 1))) {
        if (!this.queryNames.has(name)) return null;
        // A repeated parameter is kept as a list, for the reader to refuse as the REST face does.
        const prior = decoded[name];
        decoded[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
      }
    }
    return decoded;
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
