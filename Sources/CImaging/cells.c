// Pixels to terminal cells with libchafa: a symbol and two colours per cell
// (palettes, monochrome and transparency; opaque truecolor is block_cells.c's).
#include <chafa.h>
#include <pthread.h>
#include <stdlib.h>

#include "CImaging.h"

// Cells are about twice as tall as wide in common terminal fonts.
static const float font_ratio = 0.5f;

static ChafaSymbolMap *symbols;  // read-only after set-up
static pthread_once_t set_up_once = PTHREAD_ONCE_INIT;

static void set_up(void) {
  // Block elements and spaces: in every monospace font, one column each.
  symbols = chafa_symbol_map_new();
  chafa_symbol_map_add_by_tags(symbols, CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_SPACE);
  chafa_symbol_map_remove_by_tags(symbols, CHAFA_SYMBOL_TAG_WIDE | CHAFA_SYMBOL_TAG_AMBIGUOUS);
  // The picker already runs one image per core; chafa's own threads would
  // only compete with them.
  chafa_set_n_threads(1);
}

void pk_cells_fit(int32_t width, int32_t height, int32_t max_columns, int32_t max_rows, int32_t *columns, int32_t *rows) {
  gint w = max_columns, h = max_rows;
  if (width > 0 && height > 0) chafa_calc_canvas_geometry(width, height, &w, &h, font_ratio, TRUE, FALSE);
  *columns = w < 1 ? 1 : (w > max_columns ? max_columns : w);
  *rows = h < 1 ? 1 : (h > max_rows ? max_rows : h);
}

static ChafaCanvasMode canvas_mode(pk_cell_mode mode) {
  switch (mode) {
    case PK_CELLS_TRUECOLOR: return CHAFA_CANVAS_MODE_TRUECOLOR;
    case PK_CELLS_PALETTE_240: return CHAFA_CANVAS_MODE_INDEXED_240;
    case PK_CELLS_PALETTE_16: return CHAFA_CANVAS_MODE_INDEXED_16;
    case PK_CELLS_PALETTE_8: return CHAFA_CANVAS_MODE_INDEXED_8;
    default: return CHAFA_CANVAS_MODE_FGBG;
  }
}

// block_cells.c: opaque pictures in truecolor, without libchafa.
int pk_render_block_cells(const pk_image *image, int32_t columns, int32_t rows, pk_cell *out);

int pk_render_cells(const pk_image *image, int32_t columns, int32_t rows, pk_cell_mode mode, pk_cell *out) {
  if (image->pixels == NULL || columns <= 0 || rows <= 0) return -1;
  if (mode == PK_CELLS_TRUECOLOR && pk_render_block_cells(image, columns, rows, out) == 0) return 0;
  pthread_once(&set_up_once, set_up);
  ChafaCanvasConfig *config = chafa_canvas_config_new();
  if (config == NULL) return -1;
  chafa_canvas_config_set_geometry(config, columns, rows);
  chafa_canvas_config_set_canvas_mode(config, canvas_mode(mode));
  chafa_canvas_config_set_symbol_map(config, symbols);
  // With only two tones, dithering is what keeps shapes and shading visible.
  if (mode == PK_CELLS_MONOCHROME || mode == PK_CELLS_PALETTE_8)
    chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_ORDERED);
  ChafaCanvas *canvas = chafa_canvas_new(config);
  chafa_canvas_config_unref(config);
  if (canvas == NULL) return -1;
  chafa_canvas_draw_all_pixels(canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, image->pixels, image->width, image->height,
    image->width * 4);
  for (int32_t y = 0; y < rows; y++) {
    for (int32_t x = 0; x < columns; x++) {
      pk_cell *cell = out + (size_t)y * columns + x;
      cell->codepoint = chafa_canvas_get_char_at(canvas, x, y);
      gint fg = -1, bg = -1;
      if (mode == PK_CELLS_TRUECOLOR)
        chafa_canvas_get_colors_at(canvas, x, y, &fg, &bg);
      else if (mode != PK_CELLS_MONOCHROME)
        chafa_canvas_get_raw_colors_at(canvas, x, y, &fg, &bg);
      cell->foreground = fg;
      cell->background = bg;
    }
  }
  chafa_canvas_unref(canvas);
  return 0;
}
