// A photo's capture metadata (when, with what, where, how big), read from
// the file's header bytes alone, fast enough to index a whole library: no
// decoding, no EXIF library, a few preads into one buffer on the stack.
// The one reader of photo headers: the index, the preview's facts and the
// decoders (a JPEG's frame and EXIF thumbnail, a TIFF's kind) all use it.
#ifndef PHOTO_HEADER_H
#define PHOTO_HEADER_H

#include <stddef.h>
#include <stdint.h>

#include "xmp_culling.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  // 0 unknown, 1 jpeg, 2 png, 3 webp, 4 tiff-based (TIFF, DNG, NEF, ARW,
  // CR2, ORF, RW2, PEF...), 5 heif/avif, 10 video (is_video), 6 other (a known format whose
  // metadata is not read here: GIF, BMP, JPEG XL, other ISOBMFF; Canon's
  // CR3 is 6 too, and its metadata is read)
  int32_t format;
  // The strings are as stored, cut at the first NUL and at the field's size,
  // trailing spaces removed, and every byte that is not printable ASCII
  // replaced by '?' (they end up on a terminal). "" when absent.
  char date_original[20];    // DateTimeOriginal (0x9003), "YYYY:MM:DD HH:MM:SS"
  char subsec_original[12];  // SubSecTimeOriginal (0x9291)
  char offset_original[8];   // OffsetTimeOriginal (0x9011), "+02:00"
  char make[64], model[64];  // IFD0 0x010F, 0x0110
  char lens[96];             // LensModel (0xA434)
  // The burst a shot belongs to, as Apple's MakerNote says (BurstUUID,
  // its tag 0x000B); "" when absent.
  char burst_id[40];
  // As stored, before orientation: the container's own (JPEG SOF, PNG IHDR,
  // WebP VP8X/VP8/VP8L, HEIF's largest ispe), else IFD0's ImageWidth and
  // ImageLength, else EXIF PixelX/YDimension; 0 unknown.
  int32_t width, height;
  int32_t orientation;  // EXIF 1-8, 0 when absent
  int32_t has_gps;
  double latitude, longitude;  // decimal degrees, S and W negative
  // The rest of what the preview's facts show: IFD0's DateTime (the
  // fallback for a photo with no DateTimeOriginal), and the exposure.
  char date_time[20];                                  // 0x0132
  double f_number, exposure_seconds, focal_length_mm;  // 0x829D, 0x829A, 0x920A; 0 absent
  int32_t iso;                                         // 0x8827; 0 absent
  int32_t has_exif;  // an EXIF (TIFF) structure was found
  // What decoding a JPEG needs: its frame header's colour components (1
  // grey, 3 colour, 4 CMYK), whether the frame header was reached (then
  // width and height are the frame's), where the scan's data starts, and
  // the EXIF thumbnail (IFD1) as offsets from the start of the data; 0
  // when the bytes end before them.
  int32_t components, frame_complete;
  uint64_t scan_offset, thumbnail_offset, thumbnail_length;
  // A TIFF-based file that looks like a camera RAW: DNGVersion, SubIFDs
  // (NEF, ARW, SRW keep the sensor data behind a small preview), a maker
  // in IFD0 (PEF), or Canon's CR2 mark.
  int32_t looks_raw;
  // Dates other than the Exif IFD's, for a photo that has none there:
  // DateTimeOriginal in IFD0 (TIFF/EP's placement), a JPEG's XMP date
  // (pk_xmp_date) and its IPTC DateCreated and TimeCreated (pk_iptc_date);
  // "" when absent. A Fujifilm RAF's are those of the JPEG inside it.
  char date_original_ifd0[20];
  char xmp_date[40];
  char iptc_date[12], iptc_time[16];
  // Stars, reject and colour label as the photo's own XMP says them
  // (pk_xmp_culling_read): a JPEG's first XMP segment, a TIFF-based file's
  // XMLPacket (IFD0 tag 700), a HEIF's XMP item (a "mime" item of type
  // application/rdf+xml); all 0 when it has none. A packet is read only
  // when it is in the window or can be brought there (its first 64 KiB),
  // within the same budget as everything else.
  pk_xmp_culling culling;
  // A video (MP4, MOV, M4V, 3GP: ISO BMFF and QuickTime), its moov box
  // found by walking the top-level boxes (one read per box header, so a
  // moov at the end costs a few reads): its duration; the first video
  // track's size as stored and its rotation (0, 90, 180, 270, from the
  // track's matrix: a phone's portrait video is stored landscape); and its
  // dates: Apple's com.apple.quicktime.creationdate as written (local time
  // with its offset), the ©day text, and mvhd's creation time (UTC seconds
  // since 1904; 0 when unset). A Matroska or WebM file (MKV, WEBM) says
  // its duration and size the same way, and its Info's DateUTC as
  // created_since_1904 (no rotation); an AVI its length and size, and a
  // camera's IDIT (else INFO's ICRD) as date_original, in EXIF's form on
  // the camera's clock.
  int32_t is_video;
  double duration_seconds;
  int32_t rotation;
  char apple_creation_date[40], quicktime_day[40];
  uint64_t created_since_1904;
  // The video track's codec as its sample description names it ("avc1",
  // "hvc1", "hev1", "mp4v"; "" unknown) and its frame rate (0 unknown).
  // Matroska's CodecID by MP4's names where MP4 has one ("avc1", "hvc1",
  // "vp09", "vp08", "av01", "mp4v"); AVI's fourcc (biCompression, else
  // fccHandler: "H264", "XVID", "MJPG").
  char video_codec[8];
  double frame_rate;
  // Apple's content identifier (a UUID), which a Live Photo's still (its
  // MakerNote, tag 0x0011) and its MOV (the QuickTime key
  // com.apple.quicktime.content.identifier) share; "" when absent.
  char content_id[48];
} pk_photo_header;

// A video track's quarter turn (`rotation`: 0, 90, 180, 270) as the EXIF
// orientation (1, 6, 3, 8) that shows it upright.
int pk_video_orientation(int32_t rotation);

// Reads the header of the file at `path`. Returns 0 when the file could be
// read (even with no EXIF), -1 when it could not be opened or read. Reads at
// most 256 KiB of a JPEG and 1 MiB of any other file; uses about 70 KiB of
// stack and no heap. Safe to call from several threads at once.
int pk_read_photo_header(const char *path, pk_photo_header *header);

// The same from bytes already in memory (the first bytes of a file, or all
// of it): what lies past `size` counts as missing. For fuzzing and tests.
int pk_read_photo_header_bytes(const uint8_t *data, size_t size, pk_photo_header *header);

// An EXIF block alone (PNG's eXIf chunk, WebP's EXIF chunk: a TIFF header,
// or "Exif\0\0" and one), as the same reader reads it inside a file.
int pk_read_exif_block(const uint8_t *data, size_t size, pk_photo_header *header);

#ifdef __cplusplus
}
#endif

#endif
