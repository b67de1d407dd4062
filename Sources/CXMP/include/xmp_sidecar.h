// Writing a photo's rating and colour label where the other programs that
// cull photos read them: an XMP sidecar (darktable's photo.jpg.xmp,
// Lightroom's and digiKam's photo.xmp), or the XMP inside a JPEG. exempi
// does the XMP; it is opened the first time it is needed, and a system
// without it still runs the picker (pk_xmp_available says why not).
//
// A change touches only the properties it names, in the file as it is on
// disk when it is made, so the edits of darktable, Lightroom or digiKam in
// the same file are kept; each write replaces the file whole (a new file
// beside it, renamed over it), so a reader never sees half of one.
#ifndef CXMP_XMP_SIDECAR_H
#define CXMP_XMP_SIDECAR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pk_xmp_change {
  int32_t set_rating, rating;  // rating -1..5 when set_rating
  int32_t set_label, label;    // label 0 none, 1..5 (red, yellow, green, blue, purple) when set_label
} pk_xmp_change;

// 1 when exempi could be opened; else 0 and `error` says why (for a
// one-time notice).
int pk_xmp_available(char *error, size_t capacity);

// Applies `change` to the sidecar at `path` (created when missing, 0644
// less the umask; a symbolic link's target is what is written):
//  - set_rating sets xmp:Rating (-1 is darktable's reject), and
//    digiKam:PickLabel when the file has one (1 rejected for -1; 0 for any
//    other rating when it said rejected);
//  - set_label sets xmp:Label (Red, Yellow, Green, Blue, Purple; removed
//    for none), darktable:colorlabels when the file has it (the one label;
//    removed for none) and digiKam:ColorLabel when the file has it (0 for
//    none).
// Every other property, namespace and history entry is kept; the file's
// permission bits too. The new file is written beside it, fsync'd and
// renamed over it; when the file changed on disk meanwhile, the change is
// made again on what is there now. Returns 0, or -1 with `error` set to a
// short message for the user ("cannot write /x/y.xmp: Permission
// denied", "not XMP: ..."). A file is never replaced when it is larger
// than 4 MiB, not valid UTF-8, has a DOCTYPE or ENTITY declaration (XML
// bombs), nests elements more than 128 deep, or is no x:xmpmeta packet
// exempi can parse. Safe to call from several threads at once.
int pk_xmp_write_sidecar(const char *path, const pk_xmp_change *change, char *error, size_t capacity);

// The same into the XMP inside the JPEG at `path`: its XMP segment is
// replaced (or one added after its JFIF and Exif segments), with the same
// checks on the packet it had; every other byte (EXIF, IPTC, ICC profile,
// extended XMP, the compressed image) is copied as it was into a new file
// beside it, fsync'd and renamed over it. exempi's XMPFiles is not used
// for this: it reconciles the XMP with EXIF and IPTC as it writes, and
// rewrote the IPTC and rounded the GPS position of a test photo. Only
// JPEGs: TIFF and DNG keep their XMP among their IFDs, which a rating is
// not worth rewriting in a raw file (darktable and digiKam leave raws alone
// too); they take a sidecar.
int pk_xmp_write_embedded(const char *path, const pk_xmp_change *change, char *error, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
