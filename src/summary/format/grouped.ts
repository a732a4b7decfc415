// Decimal formatting as Intl.NumberFormat("en-US", { minimumFractionDigits: d, maximumFractionDigits: d })
// writes it ("1,234.57", "-0.00"), without Intl: the first Intl call of a process loads ICU's
// locale data, which cost a one-shot `call` about a tenth of its run. Same rounding as ICU: the
// shortest decimal that reads back as the number (what String(x) gives) is rounded half away from
// zero. test/summary/grouped.test.ts holds it to Intl on random and edge values.

/** `x` with exactly `decimals` fraction digits and thousands separators, as en-US writes it. */
export function groupedFixed(x: number, decimals: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "NaN" : x < 0 ? "-∞" : "∞";
  const sign = x < 0 || Object.is(x, -0) ? "-" : "";
  const text = String(Math.abs(x));
  const e = text.indexOf("e");
  const mantissa = e < 0 ? text : text.slice(0, e);
  const dot = mantissa.indexOf(".");
  let digits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  // Digits before the decimal point: `digits` reads as digits[0..intLen) "." digits[intLen..).
  let intLen = (dot < 0 ? mantissa.length : dot) + (e < 0 ? 0 : Number(text.slice(e + 1)));
  if (intLen < 1) {
    digits = "0".repeat(1 - intLen) + digits;
    intLen = 1;
  }
  const keep = intLen + decimals;
  if (digits.length < keep) digits += "0".repeat(keep - digits.length);
  let kept = digits.slice(0, keep);
  if (digits.length > keep && digits.charCodeAt(keep) >= 53 /* "5" */) {
    // Add one unit in the last kept place, carrying through nines.
    let i = keep - 1;
    while (i >= 0 && kept[i] === "9") i--;
    kept = i < 0 ? `1${"0".repeat(keep)}` : kept.slice(0, i) + String.fromCharCode(kept.charCodeAt(i) + 1) + "0".repeat(keep - i - 1);
    if (i < 0) intLen++;
  }
  const int = kept
    .slice(0, intLen)
    .replace(/^0+(?=\d)/, "")
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return decimals > 0 ? `${sign}${int}.${kept.slice(intLen)}` : `${sign}${int}`;
}

/** A count with thousands separators ("1,000"), as toLocaleString("en-US") writes an integer. */
export function formatCount(n: number): string {
  return Number.isInteger(n) ? groupedFixed(n, 0) : n.toLocaleString("en-US");
}
