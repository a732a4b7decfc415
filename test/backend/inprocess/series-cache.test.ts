// Generated series kept for repeats: a repeat within the service clock's day is answered from the
// same columns and still charged; a new day starts empty; the bytes held stay within the bound.
import { afterEach, describe, expect, it } from "vitest";

import { NOW, serviceGet, sqliteStore } from "../../../harness/service.js";
import { KeyStore } from "../../../src/backend/inprocess/keys.js";
import { type Columns, SeriesCache } from "../../../src/backend/inprocess/series-cache.js";
import { InProcessService } from "../../../src/backend/inprocess/service.js";
import { DAY_MS } from "../../../src/catalog/index.js";

const columns = (n: number, v = 1): Columns => ({ times: new Float64Array(n).fill(v), values: new Float64Array(n).fill(v) });

describe("the series cache", () => {
  it("answers a repeat of the same key on the same day with the same columns, without making them again", () => {
    const cache = new SeriesCache(1 << 20);
    let made = 0;
    const make = () => (made++, columns(10));
    const first = cache.columns("a", NOW, make);
    expect(cache.columns("a", NOW + 1000, make)).toBe(first);
    expect(made).toBe(1);
    expect(cache.hits).toBe(1);
    expect(cache.columns("b", NOW, make)).not.toBe(first);
    expect(made).toBe(2);
  });

  it("keeps nothing from one day of the service clock to the next", () => {
    const cache = new SeriesCache(1 << 20);
    const first = cache.columns("a", NOW, () => columns(10, 1));
    const nextDay = Math.floor(NOW / DAY_MS) * DAY_MS + DAY_MS;
    const later = cache.columns("a", nextDay, () => columns(10, 2));
    expect(later).not.toBe(first);
    expect(later.values[0]).toBe(2);
    expect(cache.size).toBe(1);
  });

  it("holds at most its bound, dropping the least recently read first, and never keeps one series over a quarter of it", () => {
    const bound = 8 * 2 * 100 * 8; // eight series of 100 points (two 800-byte columns each) fill it
    const cache = new SeriesCache(bound);
    for (let i = 0; i < 8; i++) cache.columns(`s${i}`, NOW, () => columns(100));
    cache.columns("s0", NOW, () => columns(100)); // read again: now the most recent
    cache.columns("s8", NOW, () => columns(100));
    expect(cache.heldBytes).toBeLessThanOrEqual(bound);
    let made = 0;
    cache.columns("s0", NOW, () => (made++, columns(100)));
    expect(made).toBe(0);
    cache.columns("s1", NOW, () => (made++, columns(100)));
    expect(made).toBe(1);
    const before = cache.size;
    cache.columns("huge", NOW, () => columns(1000));
    expect(cache.size).toBe(before);
    expect(cache.heldBytes).toBeLessThanOrEqual(bound);
  });
});

describe("a service reading the same series twice", () => {
  let close: (() => void) | undefined;
  afterEach(() => close?.());

  it("generates it once per day, charges both reads, and answers the next day from the next day's data", async () => {
    let now = NOW;
    const keys = KeyStore.fromJson(
      JSON.stringify({ keys: [{ key: "k", credits: 100, rateLimit: { requests: 1000, windowSeconds: 60 } }] }),
    );
    const service = new InProcessService({ keys, store: sqliteStore(), now: () => now });
    close = () => void service.close();
    const path = "/btc/lifespan/Lth_mvrv";
    const first = await serviceGet(service, path, "k");
    const second = await serviceGet(service, path, "k");
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(service.series.hits).toBe(1);
    expect(JSON.stringify(second.body)).toBe(JSON.stringify(first.body));
    expect(second.usage!.creditsRemaining).toBe(first.usage!.creditsRemaining - first.usage!.charged);
    // The next day: a daily metric gains the day that ended, as a fresh service answers it.
    now = NOW + DAY_MS;
    const next = await serviceGet(service, path, "k");
    expect(service.series.hits).toBe(1);
    const fresh = new InProcessService({ keys, store: sqliteStore(), now: () => now });
    const expected = await serviceGet(fresh, path, "k");
    void fresh.close();
    expect(JSON.stringify(next.body)).toBe(JSON.stringify(expected.body));
    expect(JSON.stringify(next.body)).not.toBe(JSON.stringify(first.body));
  });
});
