// Capture metadata for the library index, which reads it for every file:
// one open, one pread of the head into a stack buffer, and small preads only
// where the format puts what we need further on. Every byte comes through
// fetch(), which checks it is there, so hostile files cost bounded work.
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "header_source.h"
#include "photo_header.h"
#include "system_calls.h"
#include "xmp_culling.h"

// Minolta's MRW: "\0MRM", the length of its header blocks, then blocks
// (a 4-byte name, a length); "\0TTW" holds a TIFF with the camera's EXIF.
static void read_mrw(source *s, pk_photo_header *h) {
  uint8_t b[8];
  if (!fetch(s, 4, b, 4)) return;
  uint64_t end = 8 + (uint64_t)be32(b), at = 8;
  for (int hop = 0; hop < 64 && at + 8 <= end && fetch(s, at, b, 8); hop++) {
    uint32_t length = be32(b + 4);
    if (memcmp(b, "\0TTW", 4) == 0) {
      cover(s, at + 8, length);
      pk_header_read_tiff(s, at + 8, length, h);
      break;
    }
    at += 8 + (uint64_t)length;
  }
  h->width = h->height = 0;
  h->scan_offset = h->thumbnail_offset = h->thumbnail_length = 0;
  h->looks_raw = 1;
}

// Canon's CRW (CIFF): heaps of 10-byte records, the table at a heap's end;
// a record whose type is a heap holds another. The date is TimeStamp
// (0x180E): seconds since 1970 on the camera's clock.
// `records` bounds the records visited in all heaps together: nested heaps
// in a crafted file cannot multiply the work.
static void read_ciff_heap(source *s, uint64_t start, uint64_t length, int depth, int *records,
                           pk_photo_header *h) {
  uint8_t r[10];
  if (depth > 4 || length < 6 || !fetch(s, start + length - 4, r, 4)) return;
  uint64_t table = start + le32(r);
  if (!fetch(s, table, r, 2)) return;
  uint32_t count = le16(r);
  if (count > 1024) return;
  for (uint32_t i = 0; i < count; i++) {
    if (--*records < 0 || !fetch(s, table + 2 + i * 10u, r, 10)) return;
    uint32_t tag = le16(r), size = le32(r + 2), offset = le32(r + 6);
    if ((tag & 0xC000) != 0 || (uint64_t)offset + size > length) continue;  // data in the record, or outside
    uint32_t kind = tag & 0x3800;
    if (kind == 0x2800 || kind == 0x3000) {
      read_ciff_heap(s, start + offset, size, depth + 1, records, h);
    } else if ((tag & 0x3FFF) == 0x180E && size >= 4 && fetch(s, start + offset, r, 4)) {
      uint64_t seconds = le32(r);
      // The civil date of a day count (Howard Hinnant's algorithm).
      int64_t days = (int64_t)(seconds / 86400), rest = (int64_t)(seconds % 86400);
      int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
      int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
      int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
      int64_t day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9, year = yoe + era * 400 + (month <= 2);
      char text[20];
      int64_t parts[6] = {year, month, day, rest / 3600, rest / 60 % 60, rest % 60};
      static const char separators[] = "::  ::";
      size_t n = 0;
      for (int k = 0; k < 6; k++) {
        int width = k == 0 ? 4 : 2;
        for (int d = width - 1; d >= 0; d--) {
          int64_t v = parts[k];
          for (int e = 0; e < d; e++) v /= 10;
          text[n++] = (char)('0' + v % 10);
        }
        if (k < 5) text[n++] = separators[k];
      }
      text[n] = 0;
      if (!h->date_original[0]) memcpy(h->date_original, text, sizeof text);
    }
  }
}

static void read_crw(source *s, pk_photo_header *h) {
  uint8_t b[4];
  if (!fetch(s, 2, b, 4)) return;
  uint64_t header = le32(b);
  // The root heap runs from the header's end to the file's end, which only
  // a stat would tell: the window's end stands in when the file is larger.
  struct stat info;
  uint64_t size = s->fd >= 0 && fstat(s->fd, &info) == 0 ? (uint64_t)info.st_size : s->window_size;
  int records = max_hops;
  if (size > header) read_ciff_heap(s, header, size - header, 0, &records, h);
  h->looks_raw = 1;
}

// MARK: Containers


static void read_jpeg(source *s, pk_photo_header *h) { pk_header_read_jpeg_at(s, 0, h); }

// A Fujifilm RAF: a header, then at the offset it names (big-endian, at
// byte 84) a JPEG preview whose EXIF holds the camera's facts. What the
// preview says of its own pixels (its size, where its data and thumbnail
// start) is not the RAF's and is dropped.
static void read_raf(source *s, pk_photo_header *h) {
  uint8_t d[8];
  if (!fetch(s, 84, d, 8)) return;
  uint32_t offset = be32(d), length = be32(d + 4);
  if (offset < 92 || length < 4) return;
  pk_header_read_jpeg_at(s, offset, h);
  h->width = h->height = 0;
  h->components = h->frame_complete = 0;
  h->scan_offset = h->thumbnail_offset = h->thumbnail_length = 0;
  h->looks_raw = 1;
}

// eXIf belongs before IDAT but may follow it, so the walk goes on to IEND,
// reading only the chunk headers.
static void read_png(source *s, pk_photo_header *h) {
  uint8_t c[16];
  if (fetch(s, 8, c, 16) && memcmp(c + 4, "IHDR", 4) == 0) {
    h->width = dimension(be32(c + 8));
    h->height = dimension(be32(c + 12));
  }
  uint64_t at = 8;
  for (int hop = 0; hop < max_hops && fetch(s, at, c, 8); hop++) {
    uint32_t length = be32(c);
    if (length > INT32_MAX || memcmp(c + 4, "IEND", 4) == 0) return;
    if (memcmp(c + 4, "eXIf", 4) == 0) {
      cover(s, at + 8, length);
      pk_header_read_tiff(s, at + 8, length, h);
      return;
    }
    at += 12 + (uint64_t)length;
  }
}

// The EXIF chunk usually follows the image data; the RIFF size is not
// trusted (writers get it wrong), the end of the file is.
static void read_webp(source *s, pk_photo_header *h) {
  uint8_t c[10];
  int canvas = 0;
  uint64_t at = 12;
  for (int hop = 0; hop < max_hops && fetch(s, at, c, 8); hop++) {
    uint32_t length = le32(c + 4);
    uint64_t body = at + 8;
    if (memcmp(c, "VP8X", 4) == 0 && length >= 10 && fetch(s, body, c, 10)) {
      canvas = 1;
      h->width = (int32_t)(le32(c + 4) & 0xFFFFFF) + 1;
      h->height = (int32_t)(le32(c + 6) >> 8) + 1;
    } else if (memcmp(c, "VP8 ", 4) == 0 && !canvas && length >= 10 && fetch(s, body, c, 10) && c[3] == 0x9D &&
               c[4] == 0x01 && c[5] == 0x2A) {
      h->width = (int32_t)(le16(c + 6) & 0x3FFF);
      h->height = (int32_t)(le16(c + 8) & 0x3FFF);
    } else if (memcmp(c, "VP8L", 4) == 0 && !canvas && length >= 5 && fetch(s, body, c, 5) && c[0] == 0x2F) {
      uint32_t bits = le32(c + 1);
      h->width = (int32_t)(bits & 0x3FFF) + 1;
      h->height = (int32_t)(bits >> 14 & 0x3FFF) + 1;
    } else if (memcmp(c, "EXIF", 4) == 0) {
      cover(s, body, length);
      pk_header_read_tiff(s, body, length, h);
      return;
    }
    at = body + length + (length & 1);
  }
}

// MARK: HEIF

// The first Exif item's ID, and the first XMP item's: a "mime" item whose
// content type (after its name, each ending in a NUL) is
// application/rdf+xml. 0 when absent.
static void find_items(source *s, const box *iinf, uint32_t *exif, uint32_t *xmp) {
  static const char rdf[] = "application/rdf+xml";  // and its NUL
  uint8_t p[128];
  if (!fetch(s, iinf->body, p, 1)) return;
  box infe;
  uint64_t at = iinf->body + (p[0] == 0 ? 6 : 8);
  for (int hop = 0; hop < max_hops && next_box(s, at, iinf->end, &infe); hop++, at = infe.end) {
    // Only versions 2 and 3 have an item type.
    if (memcmp(infe.type, "infe", 4) != 0 || infe.end - infe.body < 12 || !fetch(s, infe.body, p, 12)) continue;
    uint32_t id;
    size_t type;
    if (p[0] == 2) id = be16(p + 4), type = 8;
    else if (p[0] == 3 && infe.end - infe.body >= 14 && fetch(s, infe.body, p, 14)) id = be32(p + 4), type = 10;
    else continue;
    if (memcmp(p + type, "Exif", 4) == 0 && *exif == 0) *exif = id;
    if (memcmp(p + type, "mime", 4) != 0 || *xmp != 0) continue;
    size_t n = infe.end - infe.body < sizeof p ? (size_t)(infe.end - infe.body) : sizeof p;
    const uint8_t *name_end = fetch(s, infe.body, p, n) ? memchr(p + type + 4, 0, n - type - 4) : NULL;
    if (name_end != NULL && (size_t)(p + n - name_end - 1) >= sizeof rdf && memcmp(name_end + 1, rdf, sizeof rdf) == 0)
      *xmp = id;
  }
}

// Where an item's bytes are, from iloc: the file offsets and lengths of its
// extents (at most max_extents), idat's offset added for construction method
// 1. Returns how many extents there are, 0 when the item cannot be read.
enum { max_extents = 8 };

static int locate_item(source *s, const box *iloc, uint32_t id, uint64_t idat, uint64_t idat_end, uint64_t *starts,
                       uint64_t *lengths) {
  uint64_t at = iloc->body, end = iloc->end, v, sizes, n, item, method = 0, reference, base, count, index;
  if (!field(s, &at, end, 4, &v) || v >> 24 > 2 || !field(s, &at, end, 2, &sizes)) return 0;
  unsigned version = (unsigned)(v >> 24), offset_size = sizes >> 12 & 15, length_size = sizes >> 8 & 15,
           base_size = sizes >> 4 & 15, index_size = version > 0 ? sizes & 15 : 0;
  if (!field(s, &at, end, version < 2 ? 2 : 4, &n)) return 0;
  for (uint64_t i = 0; i < n && i < 65536; i++) {
    if (!field(s, &at, end, version < 2 ? 2 : 4, &item) || (version > 0 && !field(s, &at, end, 2, &method)) ||
        !field(s, &at, end, 2, &reference) || !field(s, &at, end, base_size, &base) || !field(s, &at, end, 2, &count))
      return 0;
    method &= 15;
    if (item != id) {
      at += count * (index_size + offset_size + length_size);
      continue;
    }
    if (reference != 0 || method > 1 || count == 0 || count > max_extents) return 0;
    for (uint64_t e = 0; e < count; e++) {
      uint64_t offset, length;
      if (!field(s, &at, end, index_size, &index) || !field(s, &at, end, offset_size, &offset) ||
          !field(s, &at, end, length_size, &length) || base >= max_offset || offset >= max_offset || length >= max_offset)
        return 0;
      uint64_t from = (method == 1 ? idat : 0) + base + offset, to = method == 1 ? idat_end : max_offset;
      if (from > to || length > to - from) return 0;
      starts[e] = from;
      lengths[e] = length != 0 ? length : to - from;  // 0: all the rest
    }
    return (int)count;
  }
  return 0;
}

// The largest ispe is taken as the primary image's: tiles, thumbnails and
// auxiliary images are smaller, and following pitm and ipma costs more code.
// The primary item's size: its ispe, cropped by its clean aperture (clap)
// where it has one, as encoders pad the coded picture to whole blocks.
// Properties are found through ipma's associations; without them (or no
// primary item) the largest ispe stands.
static void read_sizes(source *s, const box *iprp, uint32_t primary, pk_photo_header *h) {
  enum { max_properties = 64 };
  box ipco, b;
  uint64_t bodies[max_properties + 1] = {0};
  char types[max_properties + 1][4];
  uint8_t p[16];
  // ipco comes first in iprp, the associations (ipma) after it.
  if (!next_box(s, iprp->body, iprp->end, &ipco) || memcmp(ipco.type, "ipco", 4) != 0) return;
  int count = 0;
  for (uint64_t at = ipco.body; count < max_properties && next_box(s, at, ipco.end, &b); at = b.end) {
    count++;
    bodies[count] = b.body;
    memcpy(types[count], b.type, 4);
    if (memcmp(b.type, "ispe", 4) == 0 && fetch(s, b.body, p, 12)) {
      int32_t w = dimension(be32(p + 4)), hh = dimension(be32(p + 8));
      if ((int64_t)w * hh > (int64_t)h->width * h->height) {
        h->width = w;
        h->height = hh;
      }
    }
  }
  uint64_t at = ipco.end, flags, entries, item, associations, association;
  if (!next_box(s, at, iprp->end, &b) || memcmp(b.type, "ipma", 4) != 0 || primary == 0) return;
  at = b.body;
  uint64_t version;
  if (!field(s, &at, b.end, 1, &version) || !field(s, &at, b.end, 3, &flags) || !field(s, &at, b.end, 4, &entries))
    return;
  int32_t width = 0, height = 0, clean_width = 0, clean_height = 0;
  for (uint64_t e = 0; e < entries && e < max_hops; e++) {
    if (!field(s, &at, b.end, version < 1 ? 2 : 4, &item) || !field(s, &at, b.end, 1, &associations)) return;
    for (uint64_t a = 0; a < associations; a++) {
      if (!field(s, &at, b.end, (flags & 1) ? 2 : 1, &association)) return;
      if (item != primary) continue;
      uint64_t index = association & ((flags & 1) ? 0x7FFF : 0x7F);
      if (index == 0 || index > (uint64_t)count) continue;
      if (memcmp(types[index], "ispe", 4) == 0 && fetch(s, bodies[index], p, 12)) {
        width = dimension(be32(p + 4));
        height = dimension(be32(p + 8));
      } else if (memcmp(types[index], "clap", 4) == 0 && fetch(s, bodies[index], p, 16) && be32(p + 4) != 0 &&
                 be32(p + 12) != 0) {
        clean_width = dimension(be32(p) / be32(p + 4));
        clean_height = dimension(be32(p + 8) / be32(p + 12));
      }
    }
  }
  if (width <= 0 || height <= 0) return;
  h->width = width;
  h->height = height;
  if (clean_width > 0 && clean_height > 0 && clean_width <= width && clean_height <= height) {
    h->width = clean_width;
    h->height = clean_height;
  }
}

// The XMP item's bytes from its first extent on, as far as they run on
// without a gap, in their first 64 KiB (as for a TIFF's packet).
static void read_heif_xmp(source *s, const uint64_t *starts, const uint64_t *lengths, int count, pk_photo_header *h) {
  uint64_t start = starts[0], length = lengths[0];
  for (int i = 1; i < count && length < window_capacity && starts[i] == start + length; i++) length += lengths[i];
  if (length > window_capacity) length = window_capacity;
  cover(s, start, length);
  pk_xmp_culling culling;
  if (length > 0 && in_window(s, start, length) &&
      pk_xmp_culling_read(s->window + (start - s->window_at), (size_t)length, &culling))
    h->culling = culling;
}

// The Exif item's TIFF structure, from its extents.
static void read_heif_exif(source *s, const uint64_t *starts, const uint64_t *lengths, int count, pk_photo_header *h) {
  uint64_t start = starts[0], length = lengths[0];
  for (int i = 1; i < count && length != 0; i++) length = starts[i] == start + length ? length + lengths[i] : 0;
  if (length == 0) {
    // Extents apart: gathered into the buffer, which then stands for the
    // whole file at an offset nothing else uses.
    size_t gathered = 0;
    if (s->window == s->buffer) s->window_size = 0;  // about to be overwritten
    for (int i = 0; i < count; i++) {
      if (lengths[i] > window_capacity - gathered || !fetch(s, starts[i], s->buffer + gathered, lengths[i])) return;
      gathered += lengths[i];
    }
    s->fd = -1;
    s->window = s->buffer;
    s->window_at = start = max_offset;
    s->window_size = length = gathered;
  }
  uint8_t p[4];
  if (length < 4 || !fetch(s, start, p, 4) || be32(p) > length - 4) return;
  cover(s, start, length);
  pk_header_read_tiff(s, start + 4 + be32(p), length - 4 - be32(p), h);
}

static void read_heif(source *s, pk_photo_header *h) {
  box meta, b, iloc = {{0}, 0, 0};
  uint64_t at = 0, idat = 0, idat_end = 0;
  int hop = 0, found = 0;
  for (; !found && hop < 64 && next_box(s, at, max_offset, &meta); hop++, at = meta.end)
    found = memcmp(meta.type, "meta", 4) == 0;
  if (!found) return;
  cover(s, meta.body, meta.end - meta.body);
  uint32_t id = 0, xmp = 0, primary = 0;
  box iprp = {{0}, 0, 0};
  for (at = meta.body + 4, hop = 0; hop < 64 && next_box(s, at, meta.end, &b); hop++, at = b.end) {
    if (memcmp(b.type, "iinf", 4) == 0) find_items(s, &b, &id, &xmp);
    else if (memcmp(b.type, "iloc", 4) == 0) iloc = b;
    else if (memcmp(b.type, "iprp", 4) == 0) iprp = b;
    else if (memcmp(b.type, "idat", 4) == 0) idat = b.body, idat_end = b.end;
    else if (memcmp(b.type, "pitm", 4) == 0) {
      // A full box: version 0 gives a 16-bit item ID, 1 a 32-bit one.
      uint64_t field_at = b.body, version, item;
      if (field(s, &field_at, b.end, 1, &version) && field(s, &field_at, b.end, 3, &item) &&
          field(s, &field_at, b.end, version == 0 ? 2 : 4, &item))
        primary = (uint32_t)item;
    }
  }
  if (iprp.end != 0) read_sizes(s, &iprp, primary, h);
  // Both items are found while meta is in the window; the Exif is read as
  // before, then the XMP, which may cost one more read (none when the
  // Exif's extents had to be gathered: the file is left behind then).
  uint64_t starts[max_extents], lengths[max_extents], xmp_starts[max_extents], xmp_lengths[max_extents];
  int count = id != 0 && iloc.end != 0 ? locate_item(s, &iloc, id, idat, idat_end, starts, lengths) : 0;
  int xmp_count = xmp != 0 && iloc.end != 0 ? locate_item(s, &iloc, xmp, idat, idat_end, xmp_starts, xmp_lengths) : 0;
  if (count > 0) read_heif_exif(s, starts, lengths, count, h);
  if (xmp_count > 0) read_heif_xmp(s, xmp_starts, xmp_lengths, xmp_count, h);
}

// Canon's CR3 (an ISOBMFF file of brand "crx "): its metadata sits in
// moov's uuid box 85c0b687-820f-11e0-8111-f4ce462b6a48 as TIFF structures
// whose first IFD is, by box, IFD0 (CMT1), the Exif IFD (CMT2) or the GPS
// IFD (CMT4); the layout LibRaw and ExifTool read.
static void read_cr3(source *s, pk_photo_header *h) {
  static const uint8_t canon[16] = {0x85, 0xc0, 0xb6, 0x87, 0x82, 0x0f, 0x11, 0xe0,
                                    0x81, 0x11, 0xf4, 0xce, 0x46, 0x2b, 0x6a, 0x48};
  box moov, b;
  uint64_t at = 0;
  int hop = 0, found = 0;
  for (; !found && hop < 64 && next_box(s, at, max_offset, &moov); hop++, at = moov.end)
    found = memcmp(moov.type, "moov", 4) == 0;
  if (!found) return;
  for (at = moov.body, hop = 0, found = 0; !found && hop < 64 && next_box(s, at, moov.end, &b); hop++, at = b.end) {
    uint8_t id[16];
    found = memcmp(b.type, "uuid", 4) == 0 && b.end - b.body >= 16 && fetch(s, b.body, id, 16) &&
            memcmp(id, canon, 16) == 0;
  }
  if (!found) return;
  box uuid = b, cmt;
  for (at = uuid.body + 16, hop = 0; hop < 64 && next_box(s, at, uuid.end, &cmt); hop++, at = cmt.end) {
    int kind = memcmp(cmt.type, "CMT1", 4) == 0   ? ifd0
               : memcmp(cmt.type, "CMT2", 4) == 0 ? exif_ifd
               : memcmp(cmt.type, "CMT4", 4) == 0 ? gps_ifd
                                                  : -1;
    if (kind >= 0) pk_header_read_tiff_as(s, cmt.body, cmt.end - cmt.body, kind, h);
  }
}

// MARK: Entry points

static int is_heif(const uint8_t *p, size_t n) {
  static const char brands[] = "heicheixheimheishevchevxmif1mif2msf1avifavis";
  uint32_t size = be32(p);
  // The major brand, then (past the minor version) the compatible ones.
  for (size_t at = 8; at + 4 <= n && at + 4 <= size; at += at == 8 ? 8 : 4)
    for (size_t i = 0; i + 4 < sizeof brands; i += 4)
      if (memcmp(p + at, brands + i, 4) == 0) return 1;
  return 0;
}

static void read_any(source *s, pk_photo_header *h) {
  const uint8_t *p = s->window;
  size_t n = s->window_size;
  if (n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) h->format = 1;
  else if (n >= 8 && memcmp(p, "\x89PNG\r\n\x1a\n", 8) == 0) h->format = 2;
  else if (n >= 12 && memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "WEBP", 4) == 0) h->format = 3;
  else if (n >= 8 && (memcmp(p, "II*\0", 4) == 0 || memcmp(p, "MM\0*", 4) == 0 || memcmp(p, "IIRO", 4) == 0 ||
                      memcmp(p, "IIRS", 4) == 0 || memcmp(p, "IIU\0", 4) == 0))
    h->format = 4;
  else if (n >= 12 && memcmp(p + 4, "ftyp", 4) == 0 && is_heif(p, n)) h->format = 5;
  else if (pk_header_is_video(p, n)) h->format = 10;
  else if (n >= 12 && memcmp(p + 4, "ftyp", 4) == 0) h->format = 6;
  else if (n >= 16 && memcmp(p, "FUJIFILMCCD-RAW ", 16) == 0)
    h->format = 7;
  else if (n >= 8 && memcmp(p, "\0MRM", 4) == 0)
    h->format = 8;
  else if (n >= 14 && memcmp(p, "II\x1a\0\0\0HEAPCCDR", 14) == 0)
    h->format = 9;
  else if (n >= 4 && memcmp(p, "FOVb", 4) == 0)
    h->format = 11;
  else if ((n >= 4 && memcmp(p, "GIF8", 4) == 0) || (n >= 2 && memcmp(p, "BM", 2) == 0) ||
           (n >= 2 && p[0] == 0xFF && p[1] == 0x0A) || (n >= 8 && memcmp(p, "\0\0\0\x0cJXL ", 8) == 0))
    h->format = 6;
  // A JPEG's metadata is in its first segments; other formats may have theirs
  // anywhere and get more.
  uint64_t total = h->format == 1 ? 256 * 1024 : 1024 * 1024;
  s->budget = total > s->window_size ? total - s->window_size : 0;
  switch (h->format) {
    case 1: read_jpeg(s, h); break;
    case 2: read_png(s, h); break;
    case 3: read_webp(s, h); break;
    case 4: {
      // Canon's CR2 says so right after the header; looked at first, as
      // the walk may move the window (and overwrite the bytes `p` shows).
      int canon = n >= 10 && p[8] == 'C' && p[9] == 'R';
      pk_header_read_tiff(s, 0, UINT32_MAX, h);
      if (canon) h->looks_raw = 1;
      break;
    }
    case 5: read_heif(s, h); break;
    // RAWs known to the header reader only: the rest of the picker sees a
    // RAW (format 0 here).
    case 7:
      h->format = 0;
      read_raf(s, h);
      break;
    case 8:
      h->format = 0;
      read_mrw(s, h);
      break;
    case 10:
      if (memcmp(p, "\x1a\x45\xdf\xa3", 4) == 0) pk_header_read_matroska(s, h);
      else if (memcmp(p, "RIFF", 4) == 0) pk_header_read_avi(s, h);
      else pk_header_read_video(s, h);
      break;
    case 11:
      h->format = 0;
      pk_header_read_x3f(s, h);
      break;
    case 9:
      h->format = 0;
      read_crw(s, h);
      break;
    case 6:
      if (n >= 12 && memcmp(p + 4, "ftyp", 4) == 0 && memcmp(p + 8, "crx ", 4) == 0) read_cr3(s, h);
      break;
  }
}

int pk_read_photo_header(const char *path, pk_photo_header *header) {
  memset(header, 0, sizeof *header);
  // O_NONBLOCK: a FIFO put in the library must not hang the index.
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return -1;
  uint8_t buffer[window_capacity];
  source s = {.fd = fd, .buffer = buffer, .window = buffer, .calls = max_calls};
  int64_t got = read_at(&s, buffer, sizeof buffer, 0);
  if (got >= 0) {
    s.window_size = (size_t)got;
    read_any(&s, header);
  }
  close(fd);
  return got >= 0 ? 0 : -1;
}

int pk_read_photo_header_bytes(const uint8_t *data, size_t size, pk_photo_header *header) {
  memset(header, 0, sizeof *header);
  uint8_t buffer[window_capacity];
  // With no data the (unread) buffer stands in, so no pointer is NULL.
  source s = {.fd = -1, .buffer = buffer, .window = data != NULL ? data : buffer, .window_size = data != NULL ? size : 0};
  read_any(&s, header);
  return 0;
}

int pk_read_exif_block(const uint8_t *data, size_t size, pk_photo_header *header) {
  memset(header, 0, sizeof *header);
  uint8_t none[1];
  // No file lies behind the bytes, so the window is never moved.
  source s = {.fd = -1, .buffer = none, .window = data != NULL ? data : none, .window_size = data != NULL ? size : 0};
  pk_header_read_tiff(&s, 0, size, header);
  return 0;
}
