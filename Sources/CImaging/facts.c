// A photo's facts for the preview panel: size and format from the file's
// header, and what its EXIF says (camera, exposure, date, place), read by
// the one header reader (photo_header.c) from wherever the format keeps
// it: JPEG APP1, PNG eXIf, the WebP EXIF chunk, HEIF's Exif item, a TIFF's
// own IFDs. Camera RAWs are LibRaw's. Nothing is decoded.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode_internal.h"
#include "photo_header.h"
#include "system_calls.h"

// Enough to tell the format (and a TIFF from a camera RAW).
static const size_t head_bytes = 256 * 1024;

// What the header reader found, in the panel's fields; the size only when
// the reader knows it (GIF's is read here).
static void take_header(const pk_photo_header *h, pk_facts *facts) {
  if (h->width > 0 && h->height > 0) {
    facts->width = h->width;
    facts->height = h->height;
  }
  if (h->is_video) {
    facts->duration_seconds = h->duration_seconds;
    facts->frame_rate = h->frame_rate;
    memcpy(facts->video_codec, h->video_codec, sizeof facts->video_codec);
    facts->orientation = pk_video_orientation(h->rotation);
    // A video has no EXIF, but its header may say where and with what it
    // was shot (Apple's keys, Android's ©xyz, 3GPP's loci).
    snprintf(facts->make, sizeof facts->make, "%s", h->make);
    snprintf(facts->model, sizeof facts->model, "%s", h->model);
    if (h->has_gps) {
      facts->has_gps = 1;
      facts->latitude = h->latitude;
      facts->longitude = h->longitude;
    }
  }
  if (!h->has_exif) return;
  facts->has_exif = 1;
  snprintf(facts->date_taken, sizeof facts->date_taken, "%s", h->date_original[0] ? h->date_original : h->date_time);
  snprintf(facts->make, sizeof facts->make, "%s", h->make);
  snprintf(facts->model, sizeof facts->model, "%s", h->model);
  snprintf(facts->lens, sizeof facts->lens, "%s", h->lens);
  facts->f_number = h->f_number;
  facts->exposure_seconds = h->exposure_seconds;
  facts->focal_length_mm = h->focal_length_mm;
  facts->iso = h->iso;
  if (h->orientation >= 1 && h->orientation <= 8) facts->orientation = h->orientation;
  if (h->has_gps) {
    facts->has_gps = 1;
    facts->latitude = h->latitude;
    facts->longitude = h->longitude;
  }
}

int pk_read_facts(const char *path, pk_facts *facts) {
  memset(facts, 0, sizeof *facts);
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    snprintf(facts->error, sizeof facts->error, "%s", strerror(errno));
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    snprintf(facts->error, sizeof facts->error, "not a regular file");
    close(fd);
    return -1;
  }
  facts->file_size = (int64_t)st.st_size;
  size_t want = (size_t)st.st_size < head_bytes ? (size_t)st.st_size : head_bytes;
  uint8_t *head = malloc(want > 0 ? want : 1);
  ssize_t read_bytes = head != NULL ? pk_io_read_full(fd, head, want) : 0;
  size_t have = read_bytes > 0 ? (size_t)read_bytes : 0;
  close(fd);
  if (head == NULL) {
    snprintf(facts->error, sizeof facts->error, "out of memory");
    return -1;
  }
  facts->format = pk_sniff_format(head, have);
  int from_header = 1;
  if (facts->format == PK_FORMAT_GIF) {
    from_header = 0;
    if (have >= 10) {
      facts->width = head[6] | head[7] << 8;
      facts->height = head[8] | head[9] << 8;
    }
  } else if (facts->format == PK_FORMAT_RAW) {
    // A TIFF with a maker tag looks like a RAW until LibRaw says no; then
    // it is read as the TIFF it is.
    const pk_raw_reader raw = pk_get_raw_reader();
    from_header = 0;
    if (raw == PK_RAW_OFF ||
        (raw == PK_RAW_ISOLATED ? pk_raw_facts_isolated(path, facts) : pk_raw_facts(path, facts)) != 0) {
      from_header = have >= 4 && (head[0] == 'I' || head[0] == 'M');
      if (from_header) facts->format = PK_FORMAT_TIFF;
    }
  }
  free(head);
  pk_photo_header header;
  if (from_header && pk_read_photo_header(path, &header) == 0) take_header(&header, facts);
  return 0;
}
