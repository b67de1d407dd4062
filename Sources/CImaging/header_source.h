// What the header readers share (photo_header.c, exif_jpeg_header.c,
// video_header.c, matroska_header.c, avi_header.c, x3f_header.c): the
// source every byte comes through, within a budget of reads, and the
// ISO BMFF box walk. Private to CImaging.
#ifndef CIMAGING_HEADER_SOURCE_H
#define CIMAGING_HEADER_SOURCE_H

#include <stdint.h>
#include <string.h>

#include "photo_header.h"
#include "system_calls.h"

enum { window_capacity = 64 * 1024, max_calls = 4096, max_hops = 4096 };
// Offsets past this are refused before they reach pread (or overflow).
static const uint64_t max_offset = (uint64_t)1 << 62;

// The bytes of the file that are in memory (the window), and for a file the
// means to pread the rest within a budget.
typedef struct {
  int fd;           // -1: nothing exists beyond the window
  uint8_t *buffer;  // window_capacity bytes the window may be moved into
  const uint8_t *window;
  uint64_t window_at;  // the file offset of window[0]
  size_t window_size;
  uint64_t budget;  // bytes that may still be read
  int calls;        // preads that may still be made
} source;

static inline uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static inline uint32_t be32(const uint8_t *p) { return be16(p) << 16 | be16(p + 2); }
static inline uint32_t le16(const uint8_t *p) { return (uint32_t)p[1] << 8 | p[0]; }
static inline uint32_t le32(const uint8_t *p) { return le16(p + 2) << 16 | le16(p); }
static inline int32_t dimension(uint32_t v) { return v <= INT32_MAX ? (int32_t)v : 0; }
static inline double signed32(uint32_t v) { return v >= 0x80000000u ? (double)v - 4294967296.0 : v; }

// A short read of a regular file only happens at its end, so it is not
// retried: that would cost every small file a second syscall.
static inline int64_t read_at(source *s, uint8_t *to, size_t length, uint64_t at) {
  if (s->fd < 0 || s->calls-- <= 0 || at >= max_offset) return -1;
  return pk_io_pread_once(s->fd, to, length, (off_t)at);
}

static inline int in_window(const source *s, uint64_t at, uint64_t length) {
  return at >= s->window_at && at - s->window_at <= s->window_size && length <= s->window_size - (at - s->window_at);
}

static inline int fetch(source *s, uint64_t at, void *to, size_t length) {
  if (in_window(s, at, length)) {
    memcpy(to, s->window + (at - s->window_at), length);
    return 1;
  }
  if (length > s->budget || read_at(s, to, length, at) != (int64_t)length) return 0;
  s->budget -= length;
  return 1;
}

// Moves the window onto [at, at + length) so that what is parsed there next
// comes from memory: one pread instead of one per field.
static inline void cover(source *s, uint64_t at, uint64_t length) {
  if (s->fd < 0 || in_window(s, at, length) || s->budget == 0) return;
  size_t want = s->budget < window_capacity ? (size_t)s->budget : window_capacity;
  int64_t got = read_at(s, s->buffer, want, at);
  if (got < 0) return;
  s->budget -= (uint64_t)got;
  s->window = s->buffer;
  s->window_at = at;
  s->window_size = (size_t)got;
}

static inline void set_text(char *out, size_t capacity, const uint8_t *from, size_t length) {
  size_t n = 0;
  for (; n < length && n + 1 < capacity && from[n] != 0; n++)
    out[n] = from[n] >= 0x20 && from[n] < 0x7F ? (char)from[n] : '?';
  while (n > 0 && out[n - 1] == ' ') n--;
  out[n] = '\0';
}

typedef struct {
  char type[4];
  uint64_t body, end;
} box;

static inline int next_box(source *s, uint64_t at, uint64_t end, box *b) {
  uint8_t p[16];
  if (at >= end || end - at < 8 || !fetch(s, at, p, 8)) return 0;
  uint64_t size = be32(p);
  b->body = at + 8;
  if (size == 1) {
    if (!fetch(s, at + 8, p + 8, 8)) return 0;
    size = (uint64_t)be32(p + 8) << 32 | be32(p + 12);
    b->body = at + 16;
  } else if (size == 0) size = end - at;  // up to the end of what contains it
  if (size < b->body - at || size > end - at) return 0;
  memcpy(b->type, p + 4, 4);
  b->end = at + size;
  return 1;
}

// A big-endian field of 0, 2, 4 or 8 bytes at *at, which it moves past.
static inline int field(source *s, uint64_t *at, uint64_t end, unsigned size, uint64_t *value) {
  uint8_t p[8];
  *value = 0;
  if (size > 8 || *at > end || end - *at < size || (size > 0 && !fetch(s, *at, p, size))) return 0;
  for (unsigned i = 0; i < size; i++) *value = *value << 8 | p[i];
  *at += size;
  return 1;
}

// The shared readers (exif_jpeg_header.c). A TIFF structure at file
// offset `base` with `limit` bytes, its first IFD read as `first` (a CR3's
// CMT boxes each hold one kind); the same from IFD0; a JPEG's header at
// `base` (0, or a RAW's embedded JPEG).
enum { ifd0, exif_ifd, gps_ifd, apple_ifd, ifd1 };
void pk_header_read_tiff_as(source *s, uint64_t base, uint64_t limit, int first, pk_photo_header *h);
void pk_header_read_tiff(source *s, uint64_t base, uint64_t limit, pk_photo_header *h);
void pk_header_read_jpeg_at(source *s, uint64_t base, pk_photo_header *h);

// A Sigma X3F's date, make and model (x3f_header.c).
void pk_header_read_x3f(source *s, pk_photo_header *h);

// Videos: whether the first bytes are a video's (QuickTime, MP4,
// Matroska, WebM, AVI; video_header.c), and the facts of a QuickTime or
// MP4 movie's moov (video_header.c), of a Matroska or WebM file's Info
// and Tracks (matroska_header.c), of an AVI's hdrl and INFO
// (avi_header.c).
int pk_header_is_video(const uint8_t *p, size_t n);
void pk_header_read_video(source *s, pk_photo_header *h);
void pk_header_read_matroska(source *s, pk_photo_header *h);
void pk_header_read_avi(source *s, pk_photo_header *h);

#endif
