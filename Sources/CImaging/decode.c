// The decoding entry points: read a file safely, sniff its format, dispatch.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode_internal.h"
#include "photo_header.h"
#include "system_calls.h"

// Files larger than this are not images anyone wants to thumbnail; refusing
// them bounds the memory one worker can take.
static const int64_t max_file_bytes = 512LL * 1024 * 1024;
// Enough for the APP1 segment of a camera JPEG (at most 64 KiB) and the
// frame header after it.
static const size_t jpeg_head_bytes = 96 * 1024;

pk_format pk_sniff_format(const uint8_t *d, size_t n) {
  if (n >= 3 && d[0] == 0xFF && d[1] == 0xD8 && d[2] == 0xFF) return PK_FORMAT_JPEG;
  if (n >= 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0) return PK_FORMAT_PNG;
  if (n >= 6 && (memcmp(d, "GIF87a", 6) == 0 || memcmp(d, "GIF89a", 6) == 0)) return PK_FORMAT_GIF;
  if (n >= 12 && memcmp(d, "RIFF", 4) == 0 && memcmp(d + 8, "WEBP", 4) == 0) return PK_FORMAT_WEBP;
  // JPEG XL: a bare codestream, or the ISO BMFF container.
  if (n >= 2 && d[0] == 0xFF && d[1] == 0x0A) return PK_FORMAT_JXL;
  if (n >= 12 && memcmp(d, "\0\0\0\x0CJXL \r\n\x87\n", 12) == 0) return PK_FORMAT_JXL;
  if (n >= 8 && (memcmp(d, "II*\0", 4) == 0 || memcmp(d, "MM\0*", 4) == 0))
    return pk_tiff_is_camera_raw(d, n) ? PK_FORMAT_RAW : PK_FORMAT_TIFF;
  // Camera RAWs with headers of their own: Olympus ORF, Panasonic RW2,
  // Fujifilm RAF, Canon CRW and CR3.
  if (n >= 4 && (memcmp(d, "IIRO", 4) == 0 || memcmp(d, "IIRS", 4) == 0 || memcmp(d, "MMOR", 4) == 0 ||
                  memcmp(d, "IIU\0", 4) == 0))
    return PK_FORMAT_RAW;
  if (n >= 15 && memcmp(d, "FUJIFILMCCD-RAW", 15) == 0) return PK_FORMAT_RAW;
  if (n >= 14 && memcmp(d, "II\x1a\0\0\0HEAPCCDR", 14) == 0) return PK_FORMAT_RAW;
  if (n >= 12 && memcmp(d + 4, "ftypcrx ", 8) == 0) return PK_FORMAT_RAW;
  if (n >= 4 && memcmp(d, "FOVb", 4) == 0) return PK_FORMAT_RAW;  // Sigma X3F
  // BMP: "BM" and a known info-header size (12, 40, 52, 56, 64, 108, 124).
  if (n >= 18 && d[0] == 'B' && d[1] == 'M' && d[15] == 0 && d[16] == 0 && d[17] == 0) {
    static const uint8_t header_sizes[] = {12, 40, 52, 56, 64, 108, 124};
    for (size_t i = 0; i < sizeof header_sizes; i++)
      if (d[14] == header_sizes[i]) return PK_FORMAT_BMP;
  }
  if (n >= 12 && memcmp(d + 4, "ftyp", 4) == 0) {
    static const char *brands[] = {"heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1", "avif", "avis"};
    for (size_t i = 0; i < sizeof brands / sizeof brands[0]; i++)
      if (memcmp(d + 8, brands[i], 4) == 0) return PK_FORMAT_HEIF;
  }
  // Videos: an MP4 or 3GP (any other ftyp), a QuickTime movie starting
  // with one of its top-level boxes, Matroska and WebM (EBML), AVI; the
  // header reader's test (video_header.c).
  if (pk_header_is_video(d, n)) return PK_FORMAT_VIDEO;
  return PK_FORMAT_UNKNOWN;
}

static void reset_outputs(pk_decode_options *options, pk_image *out) {
  options->format = PK_FORMAT_UNKNOWN;
  options->source_width = options->source_height = 0;
  options->orientation = 1;
  options->used_embedded_thumbnail = 0;
  options->scale_denominator = 1;
  options->content_error = 0;
  options->error[0] = 0;
  out->width = out->height = 0;
  out->pixels = NULL;
}

// A TIFF that looked like a camera RAW but that LibRaw cannot read may still
// be a plain TIFF with a maker tag: libtiff gets it, and if libtiff fails
// too, LibRaw's reason is the one shown.
static int decode_raw_or_tiff(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  const pk_raw_reader mode = pk_get_raw_reader();
  if (mode == PK_RAW_ISOLATED && pk_decode_raw_isolated(data, size, options, out) == 0) return 0;
  if (mode == PK_RAW_IN_PROCESS && pk_decode_raw(data, size, options, out) == 0) return 0;
  if (mode == PK_RAW_OFF) pk_fail(options, "camera RAW reading is off");
  pk_image_free(out);
  const int tiff_headed = memcmp(data, "II*\0", 4) == 0 || memcmp(data, "MM\0*", 4) == 0;
  if (!tiff_headed) return -1;
  pk_decode_options tiff = *options;
  tiff.error[0] = 0;
  if (pk_decode_tiff(data, size, &tiff, out) != 0) {
    pk_image_free(out);
    return -1;
  }
  *options = tiff;
  options->format = PK_FORMAT_TIFF;
  return 0;
}

static int decode_sniffed(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  if (size == 0) return pk_fail(options, "empty file");
  options->format = pk_sniff_format(data, size);
  if (options->embedded_only && options->format != PK_FORMAT_JPEG)
    return pk_fail(options, "only a JPEG's first bytes can be decoded");
  switch (options->format) {
    case PK_FORMAT_JPEG: return pk_decode_jpeg(data, size, options, out);
    case PK_FORMAT_PNG: return pk_decode_png(data, size, options, out);
    case PK_FORMAT_WEBP: return pk_decode_webp(data, size, options, out);
    case PK_FORMAT_GIF: return pk_decode_gif(data, size, options, out);
    case PK_FORMAT_HEIF: return pk_decode_heif(data, size, options, out);
    case PK_FORMAT_TIFF: return pk_decode_tiff(data, size, options, out);
    case PK_FORMAT_JXL: return pk_decode_jxl(data, size, options, out);
    case PK_FORMAT_RAW: return decode_raw_or_tiff(data, size, options, out);
    case PK_FORMAT_BMP: return pk_decode_bmp(data, size, options, out);
    case PK_FORMAT_VIDEO: return pk_fail(options, "a video's frame is read from its file only");
    default: return pk_fail(options, "not an image this picker can read");
  }
}

// Decodes and marks a failure as the content's fault.
static int decode_content(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  options->content_error = 1;
  int status = decode_sniffed(data, size, options, out);
  if (status != 0) {
    pk_image_free(out);
    // Decoders clear content_error for failures that are not the file's
    // (no memory, a codec not installed).
  } else {
    options->content_error = 0;
  }
  return status;
}

// A video's frame, in the helper process when RAWs are read there; upright
// by the rotation its track's matrix says.
static int decode_video(int fd, const char *path, pk_decode_options *options, pk_image *out) {
  options->format = PK_FORMAT_VIDEO;
  pk_photo_header header;
  const int32_t rotation = pk_read_photo_header(path, &header) == 0 ? header.rotation : 0;
  int status;
  switch (pk_get_raw_reader()) {
    case PK_RAW_ISOLATED: status = pk_decode_video_isolated(fd, rotation, options, out); break;
    case PK_RAW_IN_PROCESS: status = pk_decode_video_fd(fd, rotation, options, out); break;
    default: status = pk_fail(options, "video reading is off");
  }
  if (status != 0) pk_image_free(out);
  return status;
}

int pk_decode_memory(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  reset_outputs(options, out);
  return decode_content(data, size, options, out);
}

int pk_decode_file(const char *path, pk_decode_options *options, pk_image *out) {
  reset_outputs(options, out);
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return pk_fail(options, "%s", strerror(errno));
  struct stat st;
  if (fstat(fd, &st) != 0) {
    int e = errno;
    close(fd);
    return pk_fail(options, "%s", strerror(e));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return pk_fail(options, S_ISDIR(st.st_mode) ? "a folder, not an image" : "not a regular file");
  }
  if (st.st_size == 0) {
    close(fd);
    options->content_error = 1;
    return pk_fail(options, "empty file");
  }
  // A video is read by its demuxer, a few reads where it needs them,
  // whatever its size.
  uint8_t head[16];
  if (pk_io_pread_once(fd, head, sizeof head, 0) == (ssize_t)sizeof head &&
      pk_sniff_format(head, sizeof head) == PK_FORMAT_VIDEO) {
    const int status = decode_video(fd, path, options, out);
    close(fd);
    return status;
  }
  if (st.st_size > max_file_bytes) {
    close(fd);
    return pk_fail(options, "file too large (%lld bytes)", (long long)st.st_size);
  }
  // Regular files never block; reads below may rely on that.
  const size_t size = (size_t)st.st_size;
  uint8_t *data = malloc(size);
  if (data == NULL) {
    close(fd);
    return pk_fail(options, "out of memory");
  }
  int status = -1;
  size_t have = 0;
  ssize_t n = pk_io_read_full(fd, data, size < jpeg_head_bytes ? size : jpeg_head_bytes);
  if (n < 0) {
    status = pk_fail(options, "%s", strerror(errno));
    goto done;
  }
  have = (size_t)n;
  // Camera JPEGs: the EXIF thumbnail sits in the first bytes, so try it
  // before reading megabytes.
  if (have < size && pk_sniff_format(data, have) == PK_FORMAT_JPEG) {
    pk_jpeg_header header;
    pk_jpeg_scan_header(data, have, &header);
    if (header.complete && header.thumbnail_length > 0) {
      options->format = PK_FORMAT_JPEG;
      // The thumbnail is checked against the photo's top band (jpeg.c):
      // its entropy data, about a sixty-fourth of the file, is read too,
      // with room for a top twice as busy as the average, from where the
      // scan starts when the bytes read show it (editors' segments may
      // come between), else from the thumbnail's end.
      const size_t thumbnail_end = (size_t)header.thumbnail_offset + (size_t)header.thumbnail_length;
      const size_t band_from = header.scan_offset > thumbnail_end ? header.scan_offset : thumbnail_end;
      const size_t want = band_from + size / 32 + 16384;
      if (want > have) {
        n = pk_io_read_full(fd, data + have, (want < size ? want : size) - have);
        if (n < 0) {
          status = pk_fail(options, "%s", strerror(errno));
          goto done;
        }
        have += (size_t)n;
      }
      status = pk_decode_jpeg_thumbnail(data, have, &header, have < size, options, out);
      if (status == 0) goto done;
      if (status < 0) {
        // Refused from its header (a pixel bomb): no need to read the rest.
        options->content_error = 1;
        goto done;
      }
      // A thumbnail too small or broken, or a band the bytes read do not
      // hold: the whole file decides.
      pk_image_free(out);
      reset_outputs(options, out);
    }
  }
  // A large file that is no image (a video named .jpg) is not read in full.
  if (have < size && pk_sniff_format(data, have) == PK_FORMAT_UNKNOWN) {
    options->content_error = 1;
    status = pk_fail(options, "not an image this picker can read");
    goto done;
  }
  n = pk_io_read_full(fd, data + have, size - have);
  if (n < 0) {
    status = pk_fail(options, "%s", strerror(errno));
    goto done;
  }
  have += (size_t)n;
  status = decode_content(data, have, options, out);
done:
  if (status != 0) pk_image_free(out);
  free(data);
  close(fd);
  return status;
}

int pk_tiff_is_camera_raw(const uint8_t *data, size_t size) {
  pk_photo_header read;
  pk_read_photo_header_bytes(data, size, &read);
  return read.format == 4 && read.looks_raw;
}
