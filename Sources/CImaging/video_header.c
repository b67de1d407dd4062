// A video's header (MP4, MOV, M4V, 3GP): the top-level boxes walked to the
// moov, one read per box header, then its duration, dates and first video
// track. Part of the one header reader (photo_header.c).
#include "header_source.h"

static int is_type(const box *b, const char *type) { return memcmp(b->type, type, 4) == 0; }

// The text of a QuickTime or iTunes metadata value: after a "data" box's
// type and locale.
static void data_text(source *s, const box *item, char *out, size_t capacity) {
  box data;
  uint8_t v[64];
  if (!next_box(s, item->body, item->end, &data) || !is_type(&data, "data") || data.end - data.body < 9) return;
  uint64_t length = data.end - data.body - 8;
  if (length > sizeof v) length = sizeof v;
  if (fetch(s, data.body + 8, v, (size_t)length)) set_text(out, capacity, v, (size_t)length);
}

// A video's position, when it is one: in range, and not 0,0 (unset).
static void take_position(double latitude, double longitude, pk_photo_header *h) {
  if (latitude < -90 || latitude > 90 || longitude < -180 || longitude > 180) return;
  if (latitude == 0 && longitude == 0) return;
  h->has_gps = 1;
  h->latitude = latitude;
  h->longitude = longitude;
}

// An ISO 6709 position as phones write it ("+37.7858-122.4064+012.345/"):
// latitude and longitude in decimal degrees, each with its sign.
static void take_iso6709(const char *text, pk_photo_header *h) {
  double values[2];
  const char *at = text;
  for (int i = 0; i < 2; i++) {
    if (*at != '+' && *at != '-') return;
    const double sign = *at++ == '-' ? -1 : 1;
    double value = 0, scale = 0;
    int digits = 0;
    for (; (*at >= '0' && *at <= '9') || (*at == '.' && scale == 0); at++) {
      if (*at == '.') {
        scale = 1;
        continue;
      }
      value = value * 10 + (*at - '0');
      if (scale > 0) scale *= 10;
      if (++digits > 12) return;
    }
    if (digits == 0) return;
    values[i] = sign * (scale > 0 ? value / scale : value);
  }
  take_position(values[0], values[1], h);
}

// The QuickTime keys read, by name; an item's index in "keys" says which.
enum { key_none, key_creation_date, key_location, key_make, key_model, key_content_id, key_count };
static const char *const key_names[] = {"", "com.apple.quicktime.creationdate",
  "com.apple.quicktime.location.ISO6709", "com.apple.quicktime.make", "com.apple.quicktime.model",
  "com.apple.quicktime.content.identifier"};

static void take_key(source *s, const box *item, int key, pk_photo_header *h) {
  char text[64] = "";
  switch (key) {
    case key_creation_date: data_text(s, item, h->apple_creation_date, sizeof h->apple_creation_date); break;
    case key_make: data_text(s, item, h->make, sizeof h->make); break;
    case key_model: data_text(s, item, h->model, sizeof h->model); break;
    case key_content_id: data_text(s, item, h->content_id, sizeof h->content_id); break;
    case key_location:
      data_text(s, item, text, sizeof text);
      take_iso6709(text, h);
      break;
  }
}

// A meta box (in moov, as iPhones write it, or in udta, as ffmpeg does):
// "keys" names the items, "ilst" holds them by their 1-based index: the
// creation date, the position, the make and model. An iTunes-style ©day
// in the ilst is read too.
static void read_mdta(source *s, const box *meta, pk_photo_header *h) {
  enum { max_keys = 256, longest = 40 };
  uint8_t key_of[max_keys + 1] = {0};
  box b;
  // MP4's meta is a full box (a version and flags first), QuickTime's not:
  // the children start where "hdlr" is named.
  uint8_t p[12];
  uint64_t first = meta->body;
  if (fetch(s, meta->body, p, 12) && memcmp(p + 4, "hdlr", 4) != 0 && memcmp(p + 8, "hdlr", 4) == 0) first += 4;
  for (uint64_t at = first; next_box(s, at, meta->end, &b); at = b.end) {
    if (is_type(&b, "keys")) {
      uint64_t entry = b.body + 8;
      uint8_t k[8 + longest];
      for (uint32_t i = 1; i <= max_keys && entry + 8 <= b.end && fetch(s, entry, k, 8); i++) {
        uint32_t size = be32(k);
        if (size < 8 || size > b.end - entry) break;
        if (size - 8 <= longest && fetch(s, entry + 8, k + 8, size - 8))
          for (int key = key_creation_date; key < key_count; key++)
            if (strlen(key_names[key]) == size - 8 && memcmp(k + 8, key_names[key], size - 8) == 0) key_of[i] = (uint8_t)key;
        entry += size;
      }
    } else if (is_type(&b, "ilst")) {
      box item;
      for (uint64_t i = b.body; next_box(s, i, b.end, &item); i = item.end) {
        const uint32_t index = be32((const uint8_t *)item.type);
        if (index >= 1 && index <= max_keys && key_of[index] != key_none)
          take_key(s, &item, key_of[index], h);
        else if (is_type(&item, "\xa9" "day"))
          data_text(s, &item, h->quicktime_day, sizeof h->quicktime_day);
      }
    }
  }
}

// A QuickTime text atom of udta (©day, ©xyz, ©mak, ©mod): a 16-bit length
// and a language, then the text.
static void udta_text(source *s, const box *b, char *out, size_t capacity) {
  uint8_t v[64];
  if (b->end - b->body <= 4 || !fetch(s, b->body, v, 2)) return;
  uint64_t length = be16(v);
  if (length > b->end - b->body - 4) length = b->end - b->body - 4;
  if (length > sizeof v) length = sizeof v;
  if (fetch(s, b->body + 4, v, (size_t)length)) set_text(out, capacity, v, (size_t)length);
}

// 3GPP's location box (what ffmpeg writes into an MP4): a language, a
// name, a role, then longitude, latitude and altitude in 16.16 degrees.
static void read_loci(source *s, const box *b, pk_photo_header *h) {
  uint8_t v[96];
  size_t length = b->end - b->body < sizeof v ? (size_t)(b->end - b->body) : sizeof v;
  if (length < 20 || !fetch(s, b->body, v, length)) return;
  size_t at = 6;
  while (at < length && v[at] != 0) at++;  // the place's name
  at += 2;                                 // its NUL and the role
  if (at + 8 > length) return;
  const double longitude = (int32_t)be32(v + at) / 65536.0, latitude = (int32_t)be32(v + at + 4) / 65536.0;
  take_position(latitude, longitude, h);
}

// moov/udta: QuickTime's ©day, the position Android phones write (©xyz)
// or 3GPP's loci, a camera's ©mak and ©mod, or an iTunes-style meta.
static void read_udta(source *s, const box *udta, pk_photo_header *h) {
  box b;
  char position[64] = "";
  for (uint64_t at = udta->body; next_box(s, at, udta->end, &b); at = b.end) {
    if (is_type(&b, "\xa9" "day")) udta_text(s, &b, h->quicktime_day, sizeof h->quicktime_day);
    else if (is_type(&b, "\xa9" "xyz")) udta_text(s, &b, position, sizeof position);
    else if (is_type(&b, "\xa9" "mak") && h->make[0] == 0) udta_text(s, &b, h->make, sizeof h->make);
    else if (is_type(&b, "\xa9" "mod") && h->model[0] == 0) udta_text(s, &b, h->model, sizeof h->model);
    else if (is_type(&b, "meta")) read_mdta(s, &b, h);
    else if (is_type(&b, "loci") && !h->has_gps) read_loci(s, &b, h);
  }
  if (position[0] != 0 && !h->has_gps) take_iso6709(position, h);
}

// The media's sample table: the first sample description's codec (avc1,
// hvc1, ...) and the first time-to-sample entry's duration, which with the
// media's time scale gives the frame rate of a constant-rate clip.
static void read_stbl(source *s, const box *stbl, char codec[8], uint32_t *delta) {
  box b;
  uint8_t v[16];
  for (uint64_t at = stbl->body; next_box(s, at, stbl->end, &b); at = b.end) {
    if (is_type(&b, "stsd") && b.end - b.body >= 16 && fetch(s, b.body + 8, v, 8) && be32(v) >= 8)
      set_text(codec, 8, v + 4, 4);
    else if (is_type(&b, "stts") && b.end - b.body >= 16 && fetch(s, b.body, v, 16) && be32(v + 4) > 0)
      *delta = be32(v + 12);
  }
}

// A track: its tkhd (size, matrix) counts only when its handler is "vide".
static void read_trak(source *s, const box *trak, pk_photo_header *h) {
  box b, mdia, minf;
  uint8_t v[84];
  uint32_t width = 0, height = 0, scale = 0, delta = 0;
  char codec[8] = "";
  int rotation = 0, video = 0;
  for (uint64_t at = trak->body; next_box(s, at, trak->end, &b); at = b.end) {
    if (is_type(&b, "tkhd") && fetch(s, b.body, v, 1)) {
      uint64_t start = b.body + (v[0] == 1 ? 36 : 24);  // past the times, ids and duration
      if (start + 52 > b.end || !fetch(s, start + 16, v, 44)) continue;
      // The matrix's a, b, c, d (16.16): a quarter turn shows as 0, ±1.
      int32_t a = (int32_t)be32(v), m_b = (int32_t)be32(v + 4), c = (int32_t)be32(v + 12), d = (int32_t)be32(v + 16);
      if (a == 0 && d == 0 && m_b > 0 && c < 0) rotation = 90;
      else if (a < 0 && d < 0) rotation = 180;
      else if (a == 0 && d == 0 && m_b < 0 && c > 0) rotation = 270;
      width = be32(v + 36) >> 16;
      height = be32(v + 40) >> 16;
    } else if (is_type(&b, "mdia")) {
      for (uint64_t i = b.body; next_box(s, i, b.end, &mdia); i = mdia.end) {
        if (is_type(&mdia, "hdlr") && fetch(s, mdia.body + 8, v, 4) && memcmp(v, "vide", 4) == 0) video = 1;
        // mdhd: the time scale after the version, flags and two times.
        if (is_type(&mdia, "mdhd") && fetch(s, mdia.body, v, 24))
          scale = v[0] == 1 ? be32(v + 20) : be32(v + 12);
        if (is_type(&mdia, "minf"))
          for (uint64_t m = mdia.body; next_box(s, m, mdia.end, &minf); m = minf.end)
            if (is_type(&minf, "stbl")) read_stbl(s, &minf, codec, &delta);
      }
    }
  }
  if (video && h->width == 0) {
    h->width = dimension(width);
    h->height = dimension(height);
    h->rotation = rotation;
    memcpy(h->video_codec, codec, sizeof codec);
    if (scale != 0 && delta != 0) h->frame_rate = (double)scale / delta;
  }
}

static void read_moov(source *s, const box *moov, pk_photo_header *h) {
  cover(s, moov->body, moov->end - moov->body);
  box b;
  uint8_t v[32];
  int hops = 0;
  for (uint64_t at = moov->body; hops++ < 256 && next_box(s, at, moov->end, &b); at = b.end) {
    if (is_type(&b, "mvhd") && fetch(s, b.body, v, 32)) {
      uint64_t created = v[0] == 1 ? (uint64_t)be32(v + 4) << 32 | be32(v + 8) : be32(v + 4);
      uint32_t scale = be32(v + (v[0] == 1 ? 20 : 12));
      uint64_t duration = v[0] == 1 ? (uint64_t)be32(v + 24) << 32 | be32(v + 28) : be32(v + 16);
      h->created_since_1904 = created;
      if (scale != 0 && duration != UINT32_MAX && duration != UINT64_MAX) h->duration_seconds = (double)duration / scale;
    } else if (is_type(&b, "trak")) {
      read_trak(s, &b, h);
    } else if (is_type(&b, "udta")) {
      read_udta(s, &b, h);
    } else if (is_type(&b, "meta")) {
      read_mdta(s, &b, h);
    }
  }
}

// The top-level boxes, one header read each, to the moov (after a large
// mdat when the file was not made for streaming).
void pk_header_read_video(source *s, pk_photo_header *h) {
  h->is_video = 1;
  box b;
  uint64_t at = 0;
  for (int hop = 0; hop < 64 && next_box(s, at, max_offset, &b); hop++, at = b.end) {
    if (is_type(&b, "moov")) {
      read_moov(s, &b, h);
      return;
    }
  }
}

int pk_video_orientation(int32_t rotation) {
  return rotation == 90 ? 6 : rotation == 180 ? 3 : rotation == 270 ? 8 : 1;
}

// Matroska and WebM (the EBML magic), AVI (a RIFF of form "AVI "), or a
// QuickTime or MP4 file without an image brand: its first box is one a
// movie starts with. The decoders' sniffing (decode.c) asks the same.
int pk_header_is_video(const uint8_t *p, size_t n) {
  if (n >= 4 && memcmp(p, "\x1a\x45\xdf\xa3", 4) == 0) return 1;
  if (n < 12) return 0;
  if (memcmp(p, "RIFF", 4) == 0 && memcmp(p + 8, "AVI ", 4) == 0) return 1;
  static const char starts[] = "ftypmoovmdatwidefreeskip";
  for (size_t i = 0; i + 4 < sizeof starts; i += 4)
    if (memcmp(p + 4, starts + i, 4) == 0) return memcmp(p + 4, "ftyp", 4) != 0 || memcmp(p + 8, "crx ", 4) != 0;
  return 0;
}
