// CImaging: the image libraries behind setjmp-safe entry points.
//
// Every function here returns an error instead of exiting, printing or
// longjmp-ing into Swift: libjpeg's and libpng's setjmp stays in C, and no
// library is allowed to write to stderr (it is the terminal while the UI is
// up). Pixels are RGBA8, unassociated alpha, rows packed (stride = width * 4).
#ifndef CIMAGING_H
#define CIMAGING_H

#include <stddef.h>
#include <stdint.h>

#include "embedded_dates.h"
#include "photo_header.h"

#ifdef __cplusplus
extern "C" {
#endif

// MARK: Images

typedef struct {
  int32_t width;
  int32_t height;
  uint8_t *pixels;  // malloc'd; release with pk_image_free
} pk_image;

void pk_image_free(pk_image *image);

// Turns a stored image the right way up for an EXIF orientation (1-8).
// Returns 0, or -1 when memory ran out (the image is left as it was).
int pk_image_orient(pk_image *image, int orientation);

// Whether every pixel is opaque (every JPEG, most photos): such an image
// goes without alpha (RGB, no weighting, block cells).
int pk_image_is_opaque(const pk_image *image);

// Shrinks (never enlarges) to fit inside max_width x max_height, keeping the
// aspect ratio, by averaging boxes of pixels. Returns 0 or -1 (no memory).
int pk_image_fit(pk_image *image, int32_t max_width, int32_t max_height);
// The same from rows `stride` bytes apart that stay the caller's (a
// decoder's own buffer, not copied first): 0 and `fitted` set, 1 when the
// rows already fit (nothing made), -1 when out of memory.
int pk_image_fit_rows(const uint8_t *rows, int32_t width, int32_t height, size_t stride, int32_t max_width,
  int32_t max_height, pk_image *fitted);

// MARK: Decoding

typedef enum {
  PK_FORMAT_UNKNOWN = 0,
  PK_FORMAT_JPEG,
  PK_FORMAT_PNG,
  PK_FORMAT_WEBP,
  PK_FORMAT_GIF,
  PK_FORMAT_HEIF,
  PK_FORMAT_TIFF,
  PK_FORMAT_JXL,
  PK_FORMAT_RAW,  // camera RAW: its embedded preview
  PK_FORMAT_BMP,
  PK_FORMAT_VIDEO,  // MP4, MOV, 3GP, MKV, WebM, AVI: a frame, through FFmpeg
} pk_format;

// The format told by the first bytes (at least 12 are needed).
pk_format pk_sniff_format(const uint8_t *data, size_t size);

typedef struct {
  // In: the box the caller will show the image in, in pixels. Decoders use
  // this to pick an embedded thumbnail or a DCT scale that still covers it.
  int32_t need_width;
  int32_t need_height;
  // In: an embedded thumbnail (EXIF, HEIF) is good enough when it covers
  // this smaller box; 0 means the need box. Lets a tile use a camera's
  // thumbnail while a full decode still aims at the larger need box.
  int32_t enough_width;
  int32_t enough_height;
  // In: images whose header claims more pixels are refused before decoding.
  int64_t max_pixels;
  // In: the bytes are only the start of a JPEG file (a ranged read): its
  // embedded thumbnail is decoded whatever its size, never the photo.
  int32_t embedded_only;
  // Out.
  pk_format format;
  int32_t source_width;  // as stored, before orientation
  int32_t source_height;
  int32_t orientation;  // EXIF orientation applied (1 when none)
  int32_t used_embedded_thumbnail;  // 1: EXIF (JPEG) or HEIF thumbnail
  int32_t scale_denominator;  // JPEG DCT scaling used (1, 2, 4 or 8)
  // 1 when the bytes were read and are not a usable image (worth
  // remembering until the file changes); 0 for errors of access.
  int32_t content_error;
  char error[200];  // set when a function returns non-zero
} pk_decode_options;

// Whether the first bytes of a JPEG hold all of an EXIF thumbnail that
// agrees with the photo (aspect ratio, colour): then a ranged read of them
// is enough for a tile (embedded_only).
int pk_jpeg_head_has_usable_thumbnail(const uint8_t *data, size_t size);

// Decodes an image held in memory.
int pk_decode_memory(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out);

// Decodes a file. Opens it without blocking and refuses anything that is not
// a regular file (a FIFO named x.jpg must not hang a worker). A JPEG with a
// big enough EXIF thumbnail is decoded from its first bytes only.
int pk_decode_file(const char *path, pk_decode_options *options, pk_image *out);

// MARK: Camera RAW isolation

typedef enum {
  PK_RAW_IN_PROCESS = 0,  // LibRaw in this process (tests, the default)
  PK_RAW_ISOLATED,  // LibRaw in a child of a helper server: `helper --raw-helper serve`
  PK_RAW_OFF,  // camera RAWs are not read (fuzzing the rest)
} pk_raw_reader;

// Chooses how camera RAWs are read; call once, before decoding starts.
// `helper` is the executable that answers `--raw-helper` (the picker
// itself); isolation needs Linux (memfd), elsewhere it stays in process.
void pk_set_raw_reader(pk_raw_reader mode, const char *helper);
pk_raw_reader pk_get_raw_reader(void);

// The helper server's main: argv as the picker passes it (`--raw-helper serve`).
// Returns the exit status.
int pk_raw_helper_main(int argc, char **argv);
// Ends the idle helper servers (the picker's run is over; a host may go on).
void pk_raw_end_servers(void);

// MARK: Facts (the preview's panel)

typedef struct {
  pk_format format;
  int64_t file_size;
  // What the file says of itself, in the one metadata struct: the header
  // reader's (photo_header.h), or for a camera RAW LibRaw's, filled into
  // the same fields (its size, orientation, camera, lens, exposure and
  // date_original).
  pk_photo_header header;
  // The header reader read `header` (not LibRaw, not GIF's own bytes): the
  // index reads the same, so the date can be chosen from it.
  int32_t header_read;
  char error[120];
} pk_facts;

// Reads a photo file's size, format, pixel size and EXIF facts without
// decoding it. Returns 0, or -1 with facts->error set.
int pk_read_facts(const char *path, pk_facts *facts);

// MARK: PNG files with text (the freedesktop thumbnail cache)

// Finds the tEXt chunk `key` in PNG bytes; copies its value (NUL-terminated,
// truncated to capacity) and returns its length, or -1 when absent.
int pk_png_text(const uint8_t *data, size_t size, const char *key, char *value, size_t capacity);

// `image` as PNG bytes with tEXt chunks keys[i] = values[i]: 8-bit RGB
// when opaque, else RGBA; the Sub filter; Huffman-only deflate. *out is
// freed with pk_buffer_free. 0, or -1 with `error` said.
int pk_png_encode_thumbnail(
  const pk_image *image, const char *const *keys, const char *const *values, int count, uint8_t **out,
  size_t *out_size, char *error, size_t error_capacity);

// The same, written to a new file at `path` (created with mode 0600,
// failing if it exists).
int pk_png_write_file(
  const char *path, const pk_image *image, const char *const *keys, const char *const *values, int count,
  char *error, size_t error_capacity);

// A zlib stream (RFC 1950) of Huffman-coded literals only (RFC 1951
// dynamic blocks, stored where no code saves; no LZ77 matching): what
// the PNGs above hold. `out` has room for pk_deflate_huffman_bound(size)
// bytes; returns the bytes written.
size_t pk_deflate_huffman_bound(size_t size);
size_t pk_deflate_huffman(const uint8_t *data, size_t size, uint8_t *out);

// MARK: Cells (libchafa)

typedef enum {
  PK_CELLS_TRUECOLOR = 0,  // colours are 0xRRGGBB
  PK_CELLS_PALETTE_240,  // palette indices 16-255
  PK_CELLS_PALETTE_16,  // 0-15
  PK_CELLS_PALETTE_8,  // 0-7
  PK_CELLS_MONOCHROME,  // shapes only, default colours
} pk_cell_mode;

typedef struct {
  uint32_t codepoint;
  int32_t foreground;  // -1: the terminal's default colour
  int32_t background;
} pk_cell;

// The cell size that shows a width x height image inside max_columns x
// max_rows cells with its aspect ratio kept (cells are about twice as tall
// as wide).
void pk_cells_fit(int32_t width, int32_t height, int32_t max_columns, int32_t max_rows, int32_t *columns, int32_t *rows);

// Renders into exactly columns x rows cells, written row by row to `out`
// (columns * rows of them). Returns 0, or -1 when libchafa failed.
int pk_render_cells(const pk_image *image, int32_t columns, int32_t rows, pk_cell_mode mode, pk_cell *out);

// MARK: Pixel graphics (kitty, sixel, iTerm2)

// Centres `image` on a transparent width x height canvas (at least as large
// as the image), so a picture fills whole terminal cells unstretched.
int pk_image_pad(const pk_image *image, int32_t width, int32_t height, pk_image *out);

// The pixels as kitty's `f=24` (opaque: RGB) or `f=32` (RGBA) data; `bits`
// says which. Uncompressed: zlib cost 15x the time for 14% fewer bytes of
// camera photos. A malloc'd buffer (pk_buffer_free), 0 or -1.
int pk_kitty_pixels(const pk_image *image, uint8_t **out, size_t *out_size, int *bits);

// A complete sixel image (DCS … ST) of `image` filling columns x rows cells
// of cell_width x cell_height pixels, for a terminal with this many colour
// registers; a malloc'd buffer (pk_buffer_free), 0 or -1.
int pk_encode_sixel(const pk_image *image, int32_t columns, int32_t rows, int32_t cell_width, int32_t cell_height,
  int32_t color_registers, uint8_t **out, size_t *out_size);

// MARK: Checksums

// Lowercase hex MD5 of the bytes, into out[33].
void pk_md5_hex(const uint8_t *data, size_t size, char out[33]);

// The file:// URI of an absolute path, escaped as GLib escapes it (other
// programs name their thumbnails after it). Returns its length, or -1.
int pk_file_uri(const char *absolute_path, char *out, size_t capacity);

// MARK: Encoders (the cache writer and iTerm2 pictures; the tests' other
// formats are in CTestEncoders, outside the shipped picker)

// Each returns 0 and a malloc'd buffer (release with pk_buffer_free), or -1.
int pk_encode_jpeg(const pk_image *image, int quality, uint8_t **out, size_t *out_size);
// Called with libjpeg's `struct jpeg_compress_struct *` after its defaults
// are set, to change what is written (the tests' greyscale JPEGs).
typedef void (*pk_jpeg_configure)(void *compress);
int pk_encode_jpeg_configured(const pk_image *image, int quality, pk_jpeg_configure configure, uint8_t **out,
                              size_t *out_size);
void pk_buffer_free(void *buffer);

// "name version" lines of the image libraries (and libchafa) in `out`;
// returns the length written.
size_t pk_imaging_versions(char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
