// A minimal ZIP writer and reader (deflate or stored, UTF-8 names, no ZIP64): what an .mcpb bundle is.
// Written here rather than taken from a package because the format needs ~100 lines and the packer
// must not pull a dependency tree into the build. Entries carry a fixed date so a build is
// byte-reproducible. Entries are deflated with zlib's level 9 unless the caller brings a stronger
// deflate of its own (scripts/strong-deflate.ts); one that deflate cannot shrink is stored.
import { crc32, deflateRawSync, inflateRawSync } from "node:zlib";

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** Unix permission bits (0o644 unless given). */
  mode?: number;
  /** `data` already deflated (raw deflate, no header), written as is; else zlib's level 9. */
  deflated?: Buffer;
}

const DOS_DATE_1980_01_01 = (0 << 9) | (1 << 5) | 1;

/**
 * The fields a local header and its central directory entry share, in the same order, from "version
 * needed" to the name's length: 24 bytes written at `at`.
 */
function writeEntryFields(
  header: Buffer,
  at: number,
  f: { method: number; crc: number; packed: number; size: number; name: number },
): void {
  header.writeUInt16LE(20, at); // version needed: deflate
  header.writeUInt16LE(0x0800, at + 2); // names are UTF-8
  header.writeUInt16LE(f.method, at + 4);
  header.writeUInt16LE(0, at + 6);
  header.writeUInt16LE(DOS_DATE_1980_01_01, at + 8);
  header.writeUInt32LE(f.crc, at + 10);
  header.writeUInt32LE(f.packed, at + 14);
  header.writeUInt32LE(f.size, at + 18);
  header.writeUInt16LE(f.name, at + 22);
}

export function writeZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const deflated = entry.deflated ?? deflateRawSync(entry.data, { level: 9 });
    // What deflate cannot shrink (data compressed already) is stored: method 0, the bytes themselves.
    const method = deflated.length < entry.data.length ? 8 : 0;
    const packed = method === 8 ? deflated : entry.data;
    const fields = { method, crc: crc32(entry.data), packed: packed.length, size: entry.data.length, name: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, fields);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the attributes carry the mode
    writeEntryFields(central, 6, fields);
    central.writeUInt32LE(((0o100000 | (entry.mode ?? 0o644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export class ZipError extends Error {
  override name = "ZipError";
}

/** Every entry of a ZIP file, checked against its CRC; a damaged or truncated file throws ZipError. */
export function readZip(zip: Buffer): ZipEntry[] {
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new ZipError("not a ZIP file, or truncated (no end-of-directory record)");
  const count = zip.readUInt16LE(end + 10);
  let p = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== 0x02014b50) throw new ZipError(`damaged central directory at entry ${n}`);
    const method = zip.readUInt16LE(p + 10);
    const crc = zip.readUInt32LE(p + 16);
    const packedSize = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const mode = (zip.readUInt32LE(p + 38) >>> 16) & 0o777;
    const local = zip.readUInt32LE(p + 42);
    const name = zip.toString("utf8", p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new ZipError(`damaged entry ${name}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + packedSize > zip.length) throw new ZipError(`entry ${name} is truncated`);
    const packed = zip.subarray(start, start + packedSize);
    let data: Buffer;
    try {
      data = method === 0 ? Buffer.from(packed) : method === 8 ? inflateRawSync(packed) : Buffer.alloc(0);
    } catch {
      throw new ZipError(`entry ${name} does not inflate`);
    }
    if (method !== 0 && method !== 8) throw new ZipError(`entry ${name} uses compression method ${method}`);
    if (data.length !== size || crc32(data) !== crc) throw new ZipError(`entry ${name} fails its CRC check`);
    entries.push({ name, data, ...(mode && { mode }) });
  }
  return entries;
}
