// Stars, reject and colour label as the programs that cull photos leave
// them in XMP, so that the picker shows what darktable, Lightroom or
// digiKam decided, and reads back what it wrote itself.
#ifndef PICKER_XMP_CULLING_H
#define PICKER_XMP_CULLING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pk_xmp_culling {
  int32_t has_rating;  // 1 when xmp:Rating (or digiKam:PickLabel=1) gave a value
  int32_t rating;      // -1 rejected, 0 unrated, 1..5 stars
  int32_t label;       // 0 none, 1 red, 2 yellow, 3 green, 4 blue, 5 purple
} pk_xmp_culling;

// What an XMP packet says of rating and label, as each program writes it,
// properties as attributes (xmp:Rating="3") or elements
// (<xmp:Rating>3</xmp:Rating>), their prefixes as the packet declares them:
//  - the rating is xmp:Rating's leading integer, -1 (darktable's reject) to
//    5, a value outside that range ignored; without it, digiKam:PickLabel 1
//    (rejected) is -1;
//  - the label is xmp:Label's name (Red, Yellow, Green, Blue, Purple, in
//    any case; another name is none), else the first of
//    darktable:colorlabels (0 red to 4 purple), else digiKam:ColorLabel (1
//    red, 3 yellow, 4 green, 5 blue, 6 magenta as purple; orange, grey,
//    black and white have no place here and are none).
// Returns 1 when the packet says anything of rating or label, else 0 with
// `out` zeroed. Reads only [data, data + size), a few linear scans of it:
// a sidecar whole, or a photo's embedded packet.
int pk_xmp_culling_read(const uint8_t *data, size_t size, pk_xmp_culling *out);

#ifdef __cplusplus
}
#endif

#endif
