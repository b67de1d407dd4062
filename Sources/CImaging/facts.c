// A photo's facts for the preview panel: its file size and format, and
// the one header reader's metadata (photo_header.c: the EXIF of JPEG APP1,
// PNG eXIf, the WebP EXIF chunk, HEIF's Exif item, a TIFF's own IFDs, a
// video's header). Camera RAWs are LibRaw's, in the same struct. Nothing
// is decoded.
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
      facts->header.width = head[6] | head[7] << 8;
      facts->header.height = head[8] | head[9] << 8;
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
  if (from_header) facts->header_read = pk_read_photo_header(path, &facts->header) == 0;
  return 0;
}
