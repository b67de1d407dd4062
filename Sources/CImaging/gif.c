// GIF through giflib: the first frame only, read record by record so a long
// animation is not decoded just to show its first picture.
#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

#include "decode_internal.h"

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t at;
} memory_reader;

static int read_memory(GifFileType *gif, GifByteType *buffer, int want) {
  memory_reader *reader = gif->UserData;
  size_t left = reader->size - reader->at;
  size_t n = (size_t)want < left ? (size_t)want : left;
  memcpy(buffer, reader->data + reader->at, n);
  reader->at += n;
  return (int)n;
}

static int fail_gif(pk_decode_options *options, GifFileType *gif, uint8_t *pixels, GifPixelType *line, const char *what) {
  int code = gif ? gif->Error : 0;
  free(pixels);
  free(line);
  if (gif) DGifCloseFile(gif, NULL);
  const char *reason = code ? GifErrorString(code) : NULL;
  return pk_fail(options, "%s%s%s", what, reason ? ": " : "", reason ? reason : "");
}

int pk_decode_gif(const uint8_t *data, size_t size, pk_decode_options *options, pk_image *out) {
  memory_reader reader = {data, size, 0};
  int error = 0;
  GifFileType *gif = DGifOpen(&reader, read_memory, &error);
  if (gif == NULL) return pk_fail(options, "corrupt GIF: %s", GifErrorString(error) ? GifErrorString(error) : "?");
  const int width = gif->SWidth, height = gif->SHeight;
  if (pk_check_size(options, width, height) != 0) {
    DGifCloseFile(gif, NULL);
    return -1;
  }
  options->source_width = width;
  options->source_height = height;
  uint8_t *pixels = pk_alloc_pixels(width, height);  // transparent until drawn
  GifPixelType *line = malloc((size_t)width);
  if (pixels == NULL || line == NULL) return fail_gif(options, gif, pixels, line, "out of memory");
  int transparent = NO_TRANSPARENT_COLOR;
  GifRecordType record;
  for (;;) {
    if (DGifGetRecordType(gif, &record) == GIF_ERROR) return fail_gif(options, gif, pixels, line, "corrupt GIF");
    if (record == TERMINATE_RECORD_TYPE) return fail_gif(options, gif, pixels, line, "GIF has no frames");
    if (record == EXTENSION_RECORD_TYPE) {
      int code;
      GifByteType *block;
      if (DGifGetExtension(gif, &code, &block) == GIF_ERROR) return fail_gif(options, gif, pixels, line, "corrupt GIF");
      if (code == GRAPHICS_EXT_FUNC_CODE && block != NULL) {
        GraphicsControlBlock control;
        if (DGifExtensionToGCB(block[0], block + 1, &control) == GIF_OK) transparent = control.TransparentColor;
      }
      while (block != NULL)
        if (DGifGetExtensionNext(gif, &block) == GIF_ERROR) return fail_gif(options, gif, pixels, line, "corrupt GIF");
      continue;
    }
    if (record != IMAGE_DESC_RECORD_TYPE) continue;
    if (DGifGetImageDesc(gif) == GIF_ERROR) return fail_gif(options, gif, pixels, line, "corrupt GIF");
    const GifImageDesc *frame = &gif->Image;
    const ColorMapObject *map = frame->ColorMap ? frame->ColorMap : gif->SColorMap;
    if (map == NULL) return fail_gif(options, gif, pixels, line, "GIF without colours");
    if (frame->Width <= 0 || frame->Width > 65535 || frame->Height <= 0 ||
        (int64_t)frame->Width * frame->Height > (options->max_pixels > 0 ? options->max_pixels : INT64_MAX))
      return fail_gif(options, gif, pixels, line, "GIF frame too large");
    GifPixelType *frame_line = frame->Width > width ? realloc(line, (size_t)frame->Width) : line;
    if (frame_line == NULL) return fail_gif(options, gif, pixels, line, "out of memory");
    line = frame_line;
    // Interlaced rows come in four passes.
    static const int starts[] = {0, 4, 2, 1}, steps[] = {8, 8, 4, 2};
    const int passes = frame->Interlace ? 4 : 1;
    for (int pass = 0; pass < passes; pass++) {
      const int start = frame->Interlace ? starts[pass] : 0, step = frame->Interlace ? steps[pass] : 1;
      for (int row = start; row < frame->Height; row += step) {
        if (DGifGetLine(gif, line, frame->Width) == GIF_ERROR) return fail_gif(options, gif, pixels, line, "truncated GIF");
        const int y = frame->Top + row;
        if (y < 0 || y >= height) continue;
        for (int column = 0; column < frame->Width; column++) {
          const int x = frame->Left + column;
          const int index = line[column];
          if (x < 0 || x >= width || index == transparent || index >= map->ColorCount) continue;
          uint8_t *p = pixels + ((size_t)y * width + x) * 4;
          p[0] = map->Colors[index].Red;
          p[1] = map->Colors[index].Green;
          p[2] = map->Colors[index].Blue;
          p[3] = 255;
        }
      }
    }
    break;
  }
  free(line);
  DGifCloseFile(gif, NULL);
  out->width = width;
  out->height = height;
  out->pixels = pixels;
  return 0;
}
