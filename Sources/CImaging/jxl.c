// JPEG XL through libjxl: the first frame, turned upright by the decoder
// (it applies the file's orientation itself), in sRGB when the image lets
// the decoder choose, else converted from its ICC profile.
#include <stdlib.h>
#include <string.h>

#include "decode_internal.h"
#include "optional_codecs.h"

int pk_decode_jxl(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  if (!pk_open_jxl()) {
    options->content_error = 0;
    return pk_fail(options, "JPEG XL needs libjxl, not installed (%s)", pk_jxl_library.error);
  }
  JxlDecoder *decoder = JxlDecoderCreate(NULL);
  if (decoder == NULL) return pk_fail(options, "out of memory");
  int status = -1;
  uint8_t *pixels = NULL, *icc = NULL;
  size_t icc_size = 0;
  int32_t width = 0, height = 0;
  const JxlPixelFormat format = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
  if (JxlDecoderSubscribeEvents(decoder, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE) !=
        JXL_DEC_SUCCESS ||
      JxlDecoderSetInput(decoder, data, size) != JXL_DEC_SUCCESS) {
    pk_fail(options, "corrupt JPEG XL");
    goto done;
  }
  JxlDecoderCloseInput(decoder);
  for (;;) {
    const JxlDecoderStatus event = JxlDecoderProcessInput(decoder);
    if (event == JXL_DEC_BASIC_INFO) {
      JxlBasicInfo info;
      if (JxlDecoderGetBasicInfo(decoder, &info) != JXL_DEC_SUCCESS) {
        pk_fail(options, "corrupt JPEG XL");
        goto done;
      }
      // The decoder turns the image upright: 90-degree turns swap the sides.
      const int turned = info.orientation >= 5;
      width = (int32_t)(turned ? info.ysize : info.xsize);
      height = (int32_t)(turned ? info.xsize : info.ysize);
      if (pk_check_size(options, width, height) != 0) goto done;
      options->source_width = width;
      options->source_height = height;
      options->orientation = (int32_t)info.orientation;
    } else if (event == JXL_DEC_COLOR_ENCODING) {
      JxlColorEncoding srgb;
      JxlColorEncodingSetToSRGB(&srgb, JXL_FALSE);
      JxlDecoderSetPreferredColorProfile(decoder, &srgb);
      // Pixels kept in the file's own space (lossless with a profile) are
      // converted from that profile after decoding.
      JxlColorEncoding encoding;
      if (JxlDecoderGetColorAsEncodedProfile(decoder, &format, JXL_COLOR_PROFILE_TARGET_DATA, &encoding) !=
            JXL_DEC_SUCCESS &&
          JxlDecoderGetICCProfileSize(decoder, &format, JXL_COLOR_PROFILE_TARGET_DATA, &icc_size) == JXL_DEC_SUCCESS &&
          icc_size > 0 && icc_size < 4 * 1024 * 1024 && (icc = malloc(icc_size)) != NULL &&
          JxlDecoderGetColorAsICCProfile(decoder, &format, JXL_COLOR_PROFILE_TARGET_DATA, icc, icc_size) !=
            JXL_DEC_SUCCESS) {
        free(icc);
        icc = NULL;
      }
    } else if (event == JXL_DEC_NEED_IMAGE_OUT_BUFFER) {
      size_t needed = 0;
      if (JxlDecoderImageOutBufferSize(decoder, &format, &needed) != JXL_DEC_SUCCESS ||
          needed != (size_t)width * (size_t)height * 4) {
        pk_fail(options, "corrupt JPEG XL");
        goto done;
      }
      pixels = pk_alloc_pixels(width, height);
      if (pixels == NULL) {
        pk_fail(options, "out of memory");
        goto done;
      }
      if (JxlDecoderSetImageOutBuffer(decoder, &format, pixels, needed) != JXL_DEC_SUCCESS) {
        pk_fail(options, "corrupt JPEG XL");
        goto done;
      }
    } else if (event == JXL_DEC_FULL_IMAGE) {
      break;  // the first frame is enough
    } else if (event == JXL_DEC_NEED_MORE_INPUT) {
      pk_fail(options, "truncated JPEG XL");
      goto done;
    } else {
      pk_fail(options, "corrupt JPEG XL");
      goto done;
    }
  }
  out->width = width;
  out->height = height;
  out->pixels = pixels;
  pixels = NULL;
  if (icc != NULL) pk_apply_icc(out, icc, icc_size);
  status = 0;
done:
  free(pixels);
  free(icc);
  JxlDecoderDestroy(decoder);
  return status;
}
