// A Matroska or WebM file's header (MKV, WEBM): EBML elements, each an ID
// and a size written as variable-length integers, nested. The Segment's
// Info (duration, date) and Tracks (the first video track's size, codec
// and frame rate) are read; its Clusters (the frames, nearly all of the
// file) are skipped, never walked: when Info or Tracks come after them,
// the SeekHead says where. No recursion: each level of nesting read is
// a loop of its own, and every element costs one of a fixed number of
// visits. Part of the one header reader (photo_header.c).
#include "header_source.h"

enum {
  id_segment = 0x18538067,
  id_seek_head = 0x114D9B74,
  id_seek = 0x4DBB,
  id_seek_id = 0x53AB,
  id_seek_position = 0x53AC,
  id_info = 0x1549A966,
  id_timestamp_scale = 0x2AD7B1,
  id_duration = 0x4489,
  id_date_utc = 0x4461,
  id_tracks = 0x1654AE6B,
  id_track_entry = 0xAE,
  id_track_type = 0x83,
  id_codec_id = 0x86,
  id_codec_private = 0x63A2,
  id_default_duration = 0x23E383,
  id_video = 0xE0,
  id_pixel_width = 0xB0,
  id_pixel_height = 0xBA,
  id_cluster = 0x1F43B675,
  id_cues = 0x1C53BB6B,
  id_tags = 0x1254C367,
  id_chapters = 0x1043A770,
  id_attachments = 0x1941A469,
  id_ebml = 0x1A45DFA3,
};

// Elements read in all (a 64 KiB window of two-byte elements would be
// 32,768 of them), and the header's elements before the Segment.
enum { max_elements = 4096, max_before_segment = 8 };

// 2001-01-01T00:00:00 UTC, DateUTC's origin, in seconds since 1904.
static const int64_t millennium_since_1904 = 3061152000;

typedef struct {
  source *s;
  int visits;        // elements that may still be read
  uint64_t segment;  // the Segment's data: where SeekPositions count from
} walk;

typedef struct {
  uint32_t id;
  uint64_t body, end;
  // The size is all ones (a live stream's Segment and Clusters): it runs
  // to its parent's end, or to the first element of the Segment's level.
  int unknown;
} element;

// The length of a variable-length integer from its first byte: its
// leading zeros plus one; 0 for a zero byte (longer than 8).
static unsigned vint_length(uint8_t first) {
  unsigned length = 1;
  for (uint8_t mask = 0x80; mask != 0 && (first & mask) == 0; mask >>= 1) length++;
  return length <= 8 ? length : 0;
}

// The element at `at` inside [at, end): its ID (at most 4 bytes, as EBML's
// default EBMLMaxIDLength says) and its size (at most 8), both in one
// fetch; a known size must fit in the parent.
static int next_element(walk *w, uint64_t at, uint64_t end, element *e) {
  uint8_t p[12];
  if (w->visits <= 0 || at >= end) return 0;
  w->visits--;
  const size_t want = end - at < sizeof p ? (size_t)(end - at) : sizeof p;
  if (want < 2 || !fetch(w->s, at, p, want)) return 0;
  const unsigned id_length = vint_length(p[0]);
  if (id_length == 0 || id_length > 4 || id_length >= want) return 0;
  const unsigned size_length = vint_length(p[id_length]);
  if (size_length == 0 || id_length + size_length > want) return 0;
  uint32_t id = 0;
  for (unsigned i = 0; i < id_length; i++) id = id << 8 | p[i];
  uint64_t size = p[id_length] & (0xFF >> size_length);
  for (unsigned i = 1; i < size_length; i++) size = size << 8 | p[id_length + i];
  e->id = id;
  e->body = at + id_length + size_length;
  e->unknown = size == ((uint64_t)1 << (7 * size_length)) - 1;
  if (e->unknown) {
    e->end = end;
  } else {
    if (size > end - e->body) return 0;
    e->end = e->body + size;
  }
  return 1;
}

// An element that only the Segment holds (or the file): where a parent of
// unknown size ends.
static int is_top_level(uint32_t id) {
  return id == id_cluster || id == id_info || id == id_tracks || id == id_seek_head || id == id_cues ||
         id == id_tags || id == id_chapters || id == id_attachments || id == id_segment || id == id_ebml;
}

// The children of `parent`, one per call from `at`. A parent of unknown
// size ends at the first element of the Segment's level, which is then
// its end (and its size is known from there on).
static int next_child(walk *w, element *parent, uint64_t at, element *child) {
  if (!next_element(w, at, parent->end, child)) return 0;
  if (parent->unknown && is_top_level(child->id)) {
    parent->end = at;
    parent->unknown = 0;
    return 0;
  }
  return 1;
}

// An unsigned integer of 0 to 8 bytes (0 bytes is 0).
static int element_uint(walk *w, const element *e, uint64_t *value) {
  uint64_t at = e->body;
  return !e->unknown && e->end - e->body <= 8 && field(w->s, &at, e->end, (unsigned)(e->end - e->body), value);
}

// A float of 4 or 8 bytes (IEEE 754, big-endian).
static int element_float(walk *w, const element *e, double *value) {
  uint64_t bits;
  if (!element_uint(w, e, &bits)) return 0;
  if (e->end - e->body == 8) {
    memcpy(value, &bits, sizeof *value);
  } else if (e->end - e->body == 4) {
    const uint32_t low = (uint32_t)bits;
    float single;
    memcpy(&single, &low, sizeof single);
    *value = single;
  } else {
    return 0;
  }
  return 1;
}

// Moves the window onto an element about to be walked: its children then
// come from memory.
static void cover_element(walk *w, const element *e) {
  cover(w->s, e->body, e->end - e->body < window_capacity ? e->end - e->body : window_capacity);
}

// Info: the TimestampScale (nanoseconds per tick, 1,000,000 unless said),
// the Duration in ticks (a float), and DateUTC (signed nanoseconds since
// 2001, UTC) as seconds since 1904 like an MP4's mvhd. Returns 0 when its
// end could not be found (an unknown size with nothing after it).
static int read_info(walk *w, element *info, pk_photo_header *h) {
  cover_element(w, info);
  element e;
  uint64_t scale = 1000000, value;
  double duration = 0;
  for (uint64_t at = info->body; next_child(w, info, at, &e); at = e.end) {
    if (e.id == id_timestamp_scale && element_uint(w, &e, &value) && value != 0) {
      scale = value;
    } else if (e.id == id_duration) {
      element_float(w, &e, &duration);
    } else if (e.id == id_date_utc && e.end - e.body == 8 && element_uint(w, &e, &value) && value != 0) {
      // 0 is 2001-01-01 itself: a muxer's unset date, like MP4's 1904.
      const int64_t nanoseconds = value > INT64_MAX ? -(int64_t)(~value) - 1 : (int64_t)value;
      int64_t seconds = nanoseconds / 1000000000;
      if (nanoseconds % 1000000000 < 0) seconds--;
      if (seconds > -millennium_since_1904) h->created_since_1904 = (uint64_t)(seconds + millennium_since_1904);
    }
    if (e.unknown) break;
  }
  // Also refuses NaN and infinities; a billion seconds is 31 years.
  const double seconds = duration * (double)scale / 1e9;
  if (seconds > 0 && seconds < 1e9) h->duration_seconds = seconds;
  return !info->unknown;
}

// The four-character code of a Matroska CodecID, in the names MP4 gives
// them where it has them; a codec that says its code in CodecPrivate
// (Video for Windows' BITMAPINFOHEADER, ProRes) gets that one.
static void take_codec(walk *w, const char *codec_id, const element *private_data, char out[8]) {
  static const struct {
    const char *id, *code;
  } codes[] = {
    {"V_MPEG4/ISO/AVC", "avc1"}, {"V_MPEGH/ISO/HEVC", "hvc1"}, {"V_MPEGI/ISO/VVC", "vvc1"}, {"V_VP9", "vp09"},
    {"V_VP8", "vp08"}, {"V_AV1", "av01"}, {"V_MPEG4/ISO/SP", "mp4v"}, {"V_MPEG4/ISO/ASP", "mp4v"},
    {"V_MPEG4/ISO/AP", "mp4v"}, {"V_MPEG4/MS/V3", "MP43"}, {"V_MPEG2", "mp2v"}, {"V_MPEG1", "mp1v"},
    {"V_MJPEG", "mjpg"}, {"V_THEORA", "theo"}, {"V_FFV1", "FFV1"}, {"V_DIRAC", "drac"}, {"V_UNCOMPRESSED", "raw"},
  };
  for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++) {
    if (strcmp(codec_id, codes[i].id) == 0) {
      memcpy(out, codes[i].code, strlen(codes[i].code) + 1);
      return;
    }
  }
  // Where the code is in CodecPrivate: a BITMAPINFOHEADER's
  // biCompression, or all of ProRes's.
  const int offset = strcmp(codec_id, "V_MS/VFW/FOURCC") == 0 ? 16 : strcmp(codec_id, "V_PRORES") == 0 ? 0 : -1;
  uint8_t code[4];
  if (offset >= 0) {
    const uint64_t at = private_data->body + (uint64_t)offset;
    if (private_data->end - private_data->body >= (uint64_t)offset + 4 && fetch(w->s, at, code, 4)) set_text(out, 8, code, 4);
    return;
  }
  // Others by the last part of their name ("V_REAL/RV40": "RV40"), when short.
  const char *name = strncmp(codec_id, "V_", 2) == 0 ? codec_id + 2 : "";
  for (const char *c = name; *c != '\0'; c++)
    if (*c == '/') name = c + 1;
  if (strlen(name) < 8) memcpy(out, name, strlen(name) + 1);
}

// Frames per second from DefaultDuration (nanoseconds per frame, rounded
// to whole nanoseconds): a whole rate, or NTSC's n × 1000/1001, when the
// duration is that rate's rounded; else as it divides.
static double frame_rate(uint64_t nanoseconds) {
  // Up to a second a frame: slower is a slide show's or nonsense.
  if (nanoseconds == 0 || nanoseconds > 1000000000) return 0;
  const double rate = 1e9 / (double)nanoseconds;
  const double whole = (double)(uint64_t)(rate + 0.5), ntsc = (double)(uint64_t)(rate * 1.001 + 0.5);
  const double whole_error = 1e9 / whole - (double)nanoseconds, ntsc_error = 1.001e9 / ntsc - (double)nanoseconds;
  if (whole_error <= 1 && whole_error >= -1) return whole;
  if (ntsc_error <= 1 && ntsc_error >= -1) return ntsc / 1.001;
  return rate;
}

// A TrackEntry: taken when its TrackType is 1 (video). Returns whether it
// was.
static int read_track(walk *w, element *track, pk_photo_header *h) {
  element e, v, private_data = {0};
  uint64_t type = 0, default_duration = 0, width = 0, height = 0;
  char codec_id[32] = "";
  for (uint64_t at = track->body; next_child(w, track, at, &e); at = e.end) {
    if (e.id == id_track_type) {
      element_uint(w, &e, &type);
    } else if (e.id == id_default_duration) {
      element_uint(w, &e, &default_duration);
    } else if (e.id == id_codec_private && !e.unknown) {
      private_data = e;
    } else if (e.id == id_codec_id && !e.unknown && e.end - e.body < sizeof codec_id) {
      uint8_t text[sizeof codec_id];
      const size_t length = (size_t)(e.end - e.body);
      if (fetch(w->s, e.body, text, length)) set_text(codec_id, sizeof codec_id, text, length);
    } else if (e.id == id_video) {
      for (uint64_t i = e.body; next_child(w, &e, i, &v); i = v.end) {
        if (v.id == id_pixel_width) element_uint(w, &v, &width);
        else if (v.id == id_pixel_height) element_uint(w, &v, &height);
        if (v.unknown) break;
      }
    }
    if (e.unknown) break;
  }
  if (type != 1) return 0;
  h->width = width <= UINT32_MAX ? dimension((uint32_t)width) : 0;
  h->height = height <= UINT32_MAX ? dimension((uint32_t)height) : 0;
  take_codec(w, codec_id, &private_data, h->video_codec);
  h->frame_rate = frame_rate(default_duration);
  return 1;
}

// Tracks: the first video track. Returns 0 when its end could not be found.
static int read_tracks(walk *w, element *tracks, pk_photo_header *h) {
  cover_element(w, tracks);
  element e;
  int taken = 0;
  for (uint64_t at = tracks->body; next_child(w, tracks, at, &e); at = e.end) {
    if (e.id == id_track_entry && !taken) taken = read_track(w, &e, h);
    if (e.unknown || (taken && !tracks->unknown)) break;
  }
  return !tracks->unknown;
}

// Where the SeekHead says Info, Tracks and another SeekHead are (file
// offsets; 0 when it does not say).
typedef struct {
  uint64_t info, tracks, seek_head;
} targets;

static void read_seek_head(walk *w, element *head, targets *t) {
  cover_element(w, head);
  element seek, e;
  for (uint64_t at = head->body; next_child(w, head, at, &seek); at = seek.end) {
    if (seek.id != id_seek || seek.unknown) continue;
    uint64_t id = 0, position = UINT64_MAX;
    for (uint64_t i = seek.body; next_child(w, &seek, i, &e); i = e.end) {
      if (e.id == id_seek_id) element_uint(w, &e, &id);
      else if (e.id == id_seek_position) element_uint(w, &e, &position);
    }
    if (position >= max_offset - w->segment) continue;
    const uint64_t target = w->segment + position;
    if (id == id_info && t->info == 0) t->info = target;
    else if (id == id_tracks && t->tracks == 0) t->tracks = target;
    else if (id == id_seek_head && t->seek_head == 0) t->seek_head = target;  // followed once
  }
}

// The element the SeekHead points at, if it is the one it says.
static int element_at(walk *w, uint64_t at, uint64_t end, uint32_t id, element *e) {
  if (at == 0 || at >= end) return 0;
  cover(w->s, at, 64);
  return next_element(w, at, end, e) && e->id == id;
}

// The EBML header, then the Segment's children in order up to the first
// Cluster, then what the SeekHead points at that was not found before it.
void pk_header_read_matroska(source *s, pk_photo_header *h) {
  h->is_video = 1;
  walk w = {.s = s, .visits = max_elements};
  element segment, e;
  uint64_t at = 0;
  int found = 0;
  for (int hop = 0; !found && hop < max_before_segment && next_element(&w, at, max_offset, &segment); hop++) {
    found = segment.id == id_segment;
    if (segment.unknown) break;
    at = segment.end;
  }
  if (!found) return;
  w.segment = segment.body;
  targets t = {0};
  int have_info = 0, have_tracks = 0;
  for (at = segment.body; !(have_info && have_tracks) && next_element(&w, at, segment.end, &e); at = e.end) {
    if (e.id == id_cluster || e.id == id_segment || e.id == id_ebml) break;
    if (e.id == id_seek_head) {
      read_seek_head(&w, &e, &t);
    } else if (e.id == id_info && !have_info) {
      have_info = 1;
      if (!read_info(&w, &e, h)) break;
    } else if (e.id == id_tracks && !have_tracks) {
      have_tracks = 1;
      if (!read_tracks(&w, &e, h)) break;
    }
    // Another element of unknown size cannot be skipped.
    if (e.unknown) break;
  }
  if (have_info && have_tracks) return;
  // After the Clusters: where the SeekHead says (and mkvmerge's second
  // SeekHead at the end, once).
  if ((t.info == 0 || t.tracks == 0) && element_at(&w, t.seek_head, segment.end, id_seek_head, &e))
    read_seek_head(&w, &e, &t);
  if (!have_info && element_at(&w, t.info, segment.end, id_info, &e)) read_info(&w, &e, h);
  if (!have_tracks && element_at(&w, t.tracks, segment.end, id_tracks, &e)) read_tracks(&w, &e, h);
}
