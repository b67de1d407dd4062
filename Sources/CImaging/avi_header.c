// An AVI file's header: RIFF chunks (a four-character ID, a little-endian
// size, the data padded to an even length), LIST chunks holding others.
// LIST hdrl says the length and size (avih, the main header; per stream a
// LIST strl of strh, the stream header, and strf, for video a
// BITMAPINFOHEADER) and, from some cameras, the date (IDIT); LIST INFO
// may hold the date too (IDIT, ICRD). LIST movi, the frames, is skipped
// by its size. Little-endian throughout. Part of the one header reader.
#include "header_source.h"

// Chunks read in all, in every list.
enum { max_chunks = 1024 };

typedef struct {
  char id[4];
  char list[4];  // a LIST's type ("hdrl", "strl", "INFO", "movi"), else ""
  uint64_t body, end;  // a LIST's body starts past its type
} chunk;

typedef struct {
  source *s;
  int visits;  // chunks that may still be read
  // avih: microseconds per frame, frames (of the first RIFF only, in an
  // OpenDML file of over 1 GB), size; odml's dmlh: all the frames.
  uint32_t frame_microseconds, frames, all_frames, width, height;
  // The first video stream's strh and strf.
  int has_video;
  uint32_t scale, rate, length, stream_width, stream_height;
  char handler[8], compression[8];
  char idit[20], icrd[20];  // as EXIF dates
} avi;

static int next_chunk(avi *a, uint64_t at, uint64_t end, chunk *c) {
  uint8_t p[12];
  if (a->visits-- <= 0 || at >= end || end - at < 8 || !fetch(a->s, at, p, 8)) return 0;
  const uint32_t size = le32(p + 4);
  c->body = at + 8;
  if (size > end - c->body) return 0;
  c->end = c->body + size;
  memcpy(c->id, p, 4);
  memset(c->list, 0, sizeof c->list);
  if (memcmp(c->id, "LIST", 4) == 0) {
    if (size < 4 || !fetch(a->s, c->body, c->list, 4)) return 0;
    c->body += 4;
  }
  return 1;
}

// Where the chunk after `c` starts: past its padding byte.
static uint64_t after(const chunk *c) { return c->end + ((c->end - c->body) & 1); }

static int is_id(const chunk *c, const char *id) { return memcmp(c->id, id, 4) == 0; }
static int is_list(const chunk *c, const char *type) { return is_id(c, "LIST") && memcmp(c->list, type, 4) == 0; }

// Up to `length` bytes of a chunk's data; 0 when not there.
static size_t chunk_bytes(avi *a, const chunk *c, uint8_t *to, size_t length) {
  if (c->end - c->body < length) length = (size_t)(c->end - c->body);
  return fetch(a->s, c->body, to, length) ? length : 0;
}

// A four-character code, when it is one: printable and not blank.
static void take_code(const uint8_t *p, char out[8]) {
  int blank = 1;
  for (int i = 0; i < 4; i++) {
    if (p[i] < 0x20 || p[i] >= 0x7F) return;
    blank = blank && p[i] == ' ';
  }
  if (!blank) set_text(out, 8, p, 4);
}

// The digits at *c (up to `most`), moved past; -1 when none.
static int number(const char **c, int most) {
  int value = -1;
  for (int n = 0; n < most && **c >= '0' && **c <= '9'; n++, (*c)++) value = (value < 0 ? 0 : value * 10) + (**c - '0');
  return value;
}

// Whether *c is `separator`, then moved past it.
static int past(const char **c, char separator) {
  if (**c != separator) return 0;
  (*c)++;
  return 1;
}

static void skip_spaces(const char **c) {
  while (**c == ' ' || **c == '\t') (*c)++;
}

// "Jan" to "Dec" in any case, 1 to 12; 0 for another word.
static int month_named(const char *c) {
  static const char names[] = "janfebmaraprmayjunjulaugsepoctnovdec";
  char word[3];
  for (int i = 0; i < 3; i++) word[i] = (char)(c[i] >= 'A' && c[i] <= 'Z' ? c[i] + 32 : c[i]);
  for (int m = 0; m < 12; m++)
    if (memcmp(word, names + m * 3, 3) == 0) return m + 1;
  return 0;
}

static void put_digits(char *to, int value, int count) {
  for (int i = count - 1; i >= 0; i--, value /= 10) to[i] = (char)('0' + value % 10);
}

// A camera's date as written in IDIT or ICRD, on its own clock: C's
// ctime ("Wed Jan 02 02:03:55 2008"), or numbers ("2008:01:02 02:03:55",
// "2008-01-02T02:03", "2008/01/02"), as an EXIF date ("2008:01:02
// 02:03:55"; a date alone at midnight); "" when neither.
static void take_date(const char *text, char out[20]) {
  const char *c = text;
  int year, month, day, hour = 0, minute = 0, second = 0;
  skip_spaces(&c);
  if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z')) {
    // The weekday, if any, then the month's name.
    if (strlen(c) < 3 || (month = month_named(c)) == 0) {
      while (*c != '\0' && *c != ' ') c++;
      skip_spaces(&c);
      if (strlen(c) < 3 || (month = month_named(c)) == 0) return;
    }
    while (*c != '\0' && *c != ' ') c++;
    skip_spaces(&c);
    day = number(&c, 2);
    skip_spaces(&c);
    hour = number(&c, 2);
    if (!past(&c, ':')) return;
    minute = number(&c, 2);
    if (!past(&c, ':')) return;
    second = number(&c, 2);
    skip_spaces(&c);
    year = number(&c, 4);
  } else {
    year = number(&c, 4);
    if (!past(&c, ':') && !past(&c, '-') && !past(&c, '/') && !past(&c, '.')) return;
    month = number(&c, 2);
    if (!past(&c, ':') && !past(&c, '-') && !past(&c, '/') && !past(&c, '.')) return;
    day = number(&c, 2);
    if (*c == ' ' || *c == 'T') {
      c++;
      skip_spaces(&c);
      hour = number(&c, 2);
      if (!past(&c, ':')) return;
      minute = number(&c, 2);
      if (past(&c, ':')) second = number(&c, 2);
    }
  }
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 ||
      minute > 59 || second < 0 || second > 60)
    return;
  memcpy(out, "0000:00:00 00:00:00", 20);
  put_digits(out, year, 4);
  put_digits(out + 5, month, 2);
  put_digits(out + 8, day, 2);
  put_digits(out + 11, hour, 2);
  put_digits(out + 14, minute, 2);
  put_digits(out + 17, second, 2);
}

// A date chunk's text as an EXIF date, unless one was taken before.
static void date_chunk(avi *a, const chunk *c, char out[20]) {
  uint8_t v[64];
  char text[64];
  if (out[0] != '\0') return;
  set_text(text, sizeof text, v, chunk_bytes(a, c, v, sizeof v - 1));
  take_date(text, out);
}

// LIST strl: the first video stream's header and format.
static void read_strl(avi *a, const chunk *strl) {
  chunk c;
  uint8_t v[40];
  int video = 0;
  uint32_t scale = 0, rate = 0, length = 0, width = 0, height = 0;
  char handler[8] = "", compression[8] = "";
  for (uint64_t at = strl->body; next_chunk(a, at, strl->end, &c); at = after(&c)) {
    if (is_id(&c, "strh") && chunk_bytes(a, &c, v, 36) == 36 && memcmp(v, "vids", 4) == 0) {
      video = 1;
      take_code(v + 4, handler);
      scale = le32(v + 20);
      rate = le32(v + 24);
      length = le32(v + 32);
    } else if (is_id(&c, "strf") && chunk_bytes(a, &c, v, 20) == 20) {
      // BITMAPINFOHEADER: biWidth, biHeight (negative: stored top down),
      // biCompression.
      width = le32(v + 4);
      const uint32_t rows = le32(v + 8);
      height = rows >= 0x80000000u ? 0u - rows : rows;
      take_code(v + 16, compression);
    }
  }
  if (!video || a->has_video) return;
  a->has_video = 1;
  a->scale = scale;
  a->rate = rate;
  a->length = length;
  a->stream_width = width;
  a->stream_height = height;
  memcpy(a->handler, handler, sizeof handler);
  memcpy(a->compression, compression, sizeof compression);
}

// LIST hdrl: avih, the streams, OpenDML's frame count, a camera's IDIT.
static void read_hdrl(avi *a, const chunk *hdrl) {
  chunk c, d;
  uint8_t v[40];
  cover(a->s, hdrl->body, hdrl->end - hdrl->body);
  for (uint64_t at = hdrl->body; next_chunk(a, at, hdrl->end, &c); at = after(&c)) {
    if (is_id(&c, "avih") && chunk_bytes(a, &c, v, 40) == 40) {
      a->frame_microseconds = le32(v);
      a->frames = le32(v + 16);
      a->width = le32(v + 32);
      a->height = le32(v + 36);
    } else if (is_list(&c, "strl")) {
      read_strl(a, &c);
    } else if (is_list(&c, "odml")) {
      for (uint64_t i = c.body; next_chunk(a, i, c.end, &d); i = after(&d))
        if (is_id(&d, "dmlh") && chunk_bytes(a, &d, v, 4) == 4) a->all_frames = le32(v);
    } else if (is_id(&c, "IDIT")) {
      date_chunk(a, &c, a->idit);
    }
  }
}

// The RIFF's chunks, one header read each (the frames' LIST movi is
// skipped by its size), then the facts: the video stream's own where it
// says them, else the main header's.
void pk_header_read_avi(source *s, pk_photo_header *h) {
  h->is_video = 1;
  avi a = {.s = s, .visits = max_chunks};
  uint8_t p[12];
  if (!fetch(s, 0, p, 12)) return;
  // A recorder that stopped early may leave the RIFF's size 0.
  const uint32_t size = le32(p + 4);
  const uint64_t end = size >= 4 ? 8 + (uint64_t)size : max_offset;
  chunk c, d;
  for (uint64_t at = 12; next_chunk(&a, at, end, &c); at = after(&c)) {
    if (is_list(&c, "hdrl")) {
      read_hdrl(&a, &c);
    } else if (is_list(&c, "INFO")) {
      cover(s, c.body, c.end - c.body);
      for (uint64_t i = c.body; next_chunk(&a, i, c.end, &d); i = after(&d)) {
        if (is_id(&d, "IDIT")) date_chunk(&a, &d, a.idit);
        else if (is_id(&d, "ICRD")) date_chunk(&a, &d, a.icrd);
      }
    } else if (is_id(&c, "IDIT")) {
      date_chunk(&a, &c, a.idit);
    }
  }
  memcpy(h->date_original, a.idit[0] != '\0' ? a.idit : a.icrd, sizeof h->date_original);
  const uint32_t width = a.stream_width != 0 ? a.stream_width : a.width;
  const uint32_t height = a.stream_width != 0 ? a.stream_height : a.height;
  h->width = dimension(width);
  h->height = dimension(height);
  memcpy(h->video_codec, a.compression[0] != '\0' ? a.compression : a.handler, sizeof h->video_codec);
  const uint32_t frames = a.all_frames != 0 ? a.all_frames : a.frames;
  if (a.rate != 0 && a.scale != 0) {
    h->frame_rate = (double)a.rate / a.scale;
    if (a.length != 0) h->duration_seconds = (double)a.length * a.scale / a.rate;
  } else if (a.frame_microseconds != 0) {
    h->frame_rate = 1e6 / a.frame_microseconds;
  }
  if (h->duration_seconds == 0 && a.frame_microseconds != 0)
    h->duration_seconds = (double)frames * a.frame_microseconds / 1e6;
}
