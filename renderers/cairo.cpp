// PNG and PDF through Cairo (optional: CUTEVIS_HAVE_CAIRO).
//
// PNG cells shrink from 28 px until the image fits RenderOptions' pixel budget, so
// an image stays bounded however large the tile; labels are drawn while they are at
// least 6 px high and the legend says when they were dropped.  PDF is vector: cells
// of 20 pt, shrunk to keep the page under PDF's 200-inch limit.
#include <algorithm>
#include <cmath>

#include "lib/error.hpp"
#include "renderers/backends.hpp"

#ifdef CUTEVIS_HAVE_CAIRO
#include <cairo-pdf.h>
#include <cairo.h>
#include <dlfcn.h>
#include <zlib.h>
#endif

namespace cutevis {

#ifdef CUTEVIS_HAVE_CAIRO
bool png_supported() { return true; }
#else
bool png_supported() { return false; }
#endif

namespace detail {

#ifndef CUTEVIS_HAVE_CAIRO

std::string render_cairo(const Scene&, Format format, const RenderOptions&) {
  throw Error(std::string("cutevis was built without Cairo: no ") + (format == Format::kPdf ? "PDF" : "PNG") +
              " output (rebuild with libcairo2-dev and CUTEVIS_PNG=ON, or use --svg / --tex)");
}

#else

namespace {

// Cairo is loaded on first use (dlopen), not linked: its 20-odd libraries (X11, xcb,
// fontconfig, freetype …) cost every cutevis process ~2 ms of start-up, while only
// --png and --pdf need them.  The table names each function we call.
#define CUTEVIS_CAIRO_FUNCTIONS(X) \
  X(create) \
  X(destroy) \
  X(fill) \
  X(image_surface_create) \
  X(image_surface_get_data) \
  X(image_surface_get_height) \
  X(image_surface_get_stride) \
  X(image_surface_get_width) \
  X(move_to) \
  X(paint) \
  X(pdf_surface_create_for_stream) \
  X(rectangle) \
  X(rel_line_to) \
  X(select_font_face) \
  X(set_font_size) \
  X(set_line_width) \
  X(set_source_rgb) \
  X(show_text) \
  X(status) \
  X(status_to_string) \
  X(stroke) \
  X(surface_destroy) \
  X(surface_finish) \
  X(surface_flush) \
  X(surface_status) \
  X(text_extents)

struct CairoApi {
#define CUTEVIS_CAIRO_MEMBER(f) decltype(&::cairo_##f) f = nullptr;
  CUTEVIS_CAIRO_FUNCTIONS(CUTEVIS_CAIRO_MEMBER)
#undef CUTEVIS_CAIRO_MEMBER
};

// The loaded table; throws Error when the library or one of its functions is missing.
const CairoApi& cairo() {
  static const CairoApi* api = []() -> const CairoApi* {
    void* lib = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    auto* a = new CairoApi;
    bool ok = true;
#define CUTEVIS_CAIRO_BIND(f) \
    a->f = reinterpret_cast<decltype(a->f)>(dlsym(lib, "cairo_" #f)); \
    ok = ok && a->f != nullptr;
    CUTEVIS_CAIRO_FUNCTIONS(CUTEVIS_CAIRO_BIND)
#undef CUTEVIS_CAIRO_BIND
    if (!ok) {
      delete a;
      return nullptr;
    }
    return a;
  }();
  if (!api)
    throw Error("PNG and PDF output need the Cairo library (libcairo.so.2), which could not be loaded "
                "(Debian: apt-get install libcairo2); --svg and --tex need nothing");
  return *api;
}

const char* kFont = "DejaVu Sans Mono";
constexpr double kMargin = 12;
constexpr double kTitleFont = 16, kLegendFont = 13, kCaptionFont = 15;
constexpr double kPngCell = 28, kPdfCell = 20;
constexpr double kMinPngLabel = 6, kMinPdfLabel = 3;
constexpr double kMaxPdfSide = 14000;  // points; PDF viewers stop at 14,400 (200 inches)

struct Geometry {
  double cell = 0;
  double width = 0, height = 0;
  double title_h = 0, legend_line = 0;
  double x0 = 0, y0 = 0;  // canvas position of scene cell corner (0,0)
  std::vector<double> label_font;  // per panel; below the minimum: no labels
  double min_label = 0, axis_font = 0;
  bool axis_labels = true;
  std::vector<std::string> legend;
};

void set_rgb(cairo_t* cr, const Rgb& c) { cairo().set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

double text_width(cairo_t* cr, const std::string& s, double size, bool bold) {
  cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo().set_font_size(cr, size);
  cairo_text_extents_t e;
  cairo().text_extents(cr, s.c_str(), &e);
  return e.x_advance;
}

// Text centred at (cx, cy): lines stacked around the middle.
void centred(cairo_t* cr, double cx, double cy, double size, const std::vector<std::string>& lines) {
  cairo().set_font_size(cr, size);
  const double step = 1.15 * size, n = static_cast<double>(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    cairo_text_extents_t e;
    cairo().text_extents(cr, lines[i].c_str(), &e);
    const double baseline = cy + (static_cast<double>(i) - (n - 1) / 2) * step + 0.35 * size;
    cairo().move_to(cr, cx - e.x_advance / 2, baseline);
    cairo().show_text(cr, lines[i].c_str());
  }
}

Geometry layout(const Scene& scene, Format format, const RenderOptions& opt) {
  Geometry g;
  const Scene::Bounds b = scene.bounds();
  const double cols = static_cast<double>(b.cols()), rows = static_cast<double>(b.rows());
  g.legend = scene.legend;
  g.title_h = scene.title.empty() ? 0 : std::ceil(kTitleFont * 1.7);
  g.legend_line = std::ceil(kLegendFont * 1.45);

  // Text widths, measured on a scratch surface.
  cairo_surface_t* scratch = cairo().image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t* cr = cairo().create(scratch);
  double text_w = text_width(cr, scene.title, kTitleFont, true);
  for (const auto& line : g.legend) text_w = std::max(text_w, text_width(cr, line, kLegendFont, false));
  cairo().destroy(cr);
  cairo().surface_destroy(scratch);
  text_w += 40;  // room for the note added below when labels are dropped
  const double text_h = g.title_h + 8 + g.legend_line * static_cast<double>(g.legend.size() + 1);

  if (format == Format::kPng) {
    const double budget = static_cast<double>(opt.max_png_pixels), side = static_cast<double>(opt.max_png_side);
    double cell = kPngCell;
    cell = std::min(cell, std::floor((side - 2 * kMargin) / cols));
    cell = std::min(cell, std::floor((side - 2 * kMargin - text_h) / rows));
    // width * height <= budget, with the text block beside the grid
    while (cell > 1 && (std::max(cols * cell, text_w) + 2 * kMargin) * (rows * cell + text_h + 2 * kMargin) > budget)
      cell -= 1;
    if (cell < 1 || (std::max(cols * cell, text_w) + 2 * kMargin) * (rows * cell + text_h + 2 * kMargin) > budget)
      throw Error("the picture has " + std::to_string(b.rows()) + " x " + std::to_string(b.cols()) +
                  " cells: too large for a PNG of " + std::to_string(opt.max_png_pixels) +
                  " pixels; use --svg, --pdf or --tex");
    g.cell = cell;
  } else {
    g.cell = std::min(kPdfCell, (kMaxPdfSide - 2 * kMargin) / std::max(cols, rows));
  }
  g.min_label = format == Format::kPng ? kMinPngLabel : kMinPdfLabel;
  std::string unlabelled;
  for (const Panel& p : scene.panels) {
    g.label_font.push_back(fitting_font_size(label_extent(p), g.cell, 0.6, 13));
    if (g.label_font.back() < g.min_label && !p.cells.empty())
      unlabelled += (unlabelled.empty() ? "" : ", ") + (p.name.empty() ? std::string("cells") : p.name);
  }
  size_t axis_chars = 1;
  for (const Panel& p : scene.panels) {
    for (const auto& t : p.row_axis.text) axis_chars = std::max(axis_chars, t.size());
    for (const auto& t : p.col_axis.text) axis_chars = std::max(axis_chars, t.size());
  }
  g.axis_font = std::min(12.0, 0.95 * g.cell / (0.6 * static_cast<double>(axis_chars)));
  g.axis_labels = g.axis_font >= g.min_label - 1;
  if (!unlabelled.empty()) {
    char cell_text[32];
    std::snprintf(cell_text, sizeof cell_text, "%g", g.cell);
    g.legend.push_back("labels omitted (" + unlabelled + "): cells of " + cell_text +
                       (format == Format::kPng ? " px" : " pt") + " are too small to read them; use --svg (tooltips) or a smaller tile");
  }
  g.width = std::ceil(std::max(cols * g.cell, text_w) + 2 * kMargin);
  g.height = std::ceil(rows * g.cell + text_h + 2 * kMargin);
  g.x0 = kMargin - static_cast<double>(b.col_min) * g.cell;
  g.y0 = kMargin + g.title_h - static_cast<double>(b.row_min) * g.cell;
  return g;
}

void draw(cairo_t* cr, const Scene& scene, const Geometry& g) {
  cairo().set_source_rgb(cr, 1, 1, 1);
  cairo().paint(cr);
  const double u = g.cell;
  // Crisp 1-px lines on pixel boundaries when cells are whole pixels.
  const double line = u >= 8 ? 1.0 : 0.5;

  if (!scene.title.empty()) {
    cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo().set_font_size(cr, kTitleFont);
    cairo().set_source_rgb(cr, 0, 0, 0);
    cairo().move_to(cr, kMargin, kMargin + kTitleFont);
    cairo().show_text(cr, scene.title.c_str());
  }

  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const Panel& p = scene.panels[i];
    const double px = g.x0 + static_cast<double>(p.col0) * u, py = g.y0 + static_cast<double>(p.row0) * u;
    // Fills: runs of equal colour along each row.
    for (int64_t r = 0; r < p.rows; ++r)
      for (int64_t c = 0; c < p.cols;) {
        const Rgb fill = p.cell(r, c).fill;
        int64_t run = 1;
        while (c + run < p.cols && p.cell(r, c + run).fill == fill) ++run;
        if (fill != Rgb{}) {
          set_rgb(cr, fill);
          cairo().rectangle(cr, px + static_cast<double>(c) * u, py + static_cast<double>(r) * u,
                          static_cast<double>(run) * u, u);
          cairo().fill(cr);
        }
        c += run;
      }
    // Grid, then heavier rules.
    cairo().set_source_rgb(cr, 0, 0, 0);
    cairo().set_line_width(cr, line);
    const double w = static_cast<double>(p.cols) * u, h = static_cast<double>(p.rows) * u, off = line / 2;
    for (int64_t r = 0; r <= p.rows; ++r) {
      cairo().move_to(cr, px, py + static_cast<double>(r) * u + off);
      cairo().rel_line_to(cr, w, 0);
    }
    for (int64_t c = 0; c <= p.cols; ++c) {
      cairo().move_to(cr, px + static_cast<double>(c) * u + off, py);
      cairo().rel_line_to(cr, 0, h);
    }
    cairo().stroke(cr);
    for (int64_t r = 1; r < p.rows; ++r)
      if (uint8_t k = p.row_rules[static_cast<size_t>(r)]) {
        cairo().set_line_width(cr, line + 1.5 * k);
        cairo().move_to(cr, px, py + static_cast<double>(r) * u + off);
        cairo().rel_line_to(cr, w, 0);
        cairo().stroke(cr);
      }
    for (int64_t c = 1; c < p.cols; ++c)
      if (uint8_t k = p.col_rules[static_cast<size_t>(c)]) {
        cairo().set_line_width(cr, line + 1.5 * k);
        cairo().move_to(cr, px + static_cast<double>(c) * u + off, py);
        cairo().rel_line_to(cr, 0, h);
        cairo().stroke(cr);
      }
    // Labels.
    cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    if (g.label_font[i] >= g.min_label)
      for (int64_t r = 0; r < p.rows; ++r)
        for (int64_t c = 0; c < p.cols; ++c) {
          const Cell& cell = p.cell(r, c);
          if (cell.label.empty()) continue;
          if (cell.emphasis == Emphasis::kFaded) cairo().set_source_rgb(cr, 0.55, 0.55, 0.55);
          else cairo().set_source_rgb(cr, 0, 0, 0);
          centred(cr, px + (static_cast<double>(c) + 0.5) * u, py + (static_cast<double>(r) + 0.5) * u, g.label_font[i],
                  split_lines(cell.label));
        }
    cairo().set_source_rgb(cr, 0, 0, 0);
    if (g.axis_labels) {
      if (p.row_axis.side != AxisLabels::Side::kNone) {
        const double cx = p.row_axis.side == AxisLabels::Side::kRight ? px + w + u / 2 : px - u / 2;
        for (int64_t r = 0; r < p.rows; ++r)
          centred(cr, cx, py + (static_cast<double>(r) + 0.5) * u, g.axis_font, {p.row_axis.text[static_cast<size_t>(r)]});
      }
      if (p.col_axis.side == AxisLabels::Side::kTop)
        for (int64_t c = 0; c < p.cols; ++c)
          centred(cr, px + (static_cast<double>(c) + 0.5) * u, py - u / 2, g.axis_font,
                  {p.col_axis.text[static_cast<size_t>(c)]});
    }
    if (!p.caption.empty()) {
      cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
      centred(cr, g.x0 + (p.caption_col + 0.5) * u, g.y0 + (p.caption_row + 0.5) * u, std::max(kCaptionFont * 0.8, std::min(kCaptionFont, u)),
              {p.caption});
    }
  }

  cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo().set_font_size(cr, kLegendFont);
  cairo().set_source_rgb(cr, 0, 0, 0);
  const double legend_top = g.height - kMargin - g.legend_line * static_cast<double>(g.legend.size());
  for (size_t i = 0; i < g.legend.size(); ++i) {
    cairo().move_to(cr, kMargin, legend_top + g.legend_line * static_cast<double>(i) + kLegendFont);
    cairo().show_text(cr, g.legend[i].c_str());
  }
}

// PNG straight through zlib: each row filtered "Up" (a grid repeats its rows, so
// most filtered bytes are 0) and deflated at level 3.  Cairo's own
// writer (libpng, adaptive filters, level 6) takes ~10x longer on a 15-megapixel
// picture for a file of similar size.
void put_u32(std::string& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out += static_cast<char>((v >> shift) & 255);
}

void put_chunk(std::string& out, const char* type, const std::string& data) {
  put_u32(out, static_cast<uint32_t>(data.size()));
  const size_t start = out.size();
  out.append(type, 4);
  out += data;
  const auto* bytes = reinterpret_cast<const Bytef*>(out.data() + start);
  put_u32(out, static_cast<uint32_t>(crc32(0, bytes, static_cast<uInt>(out.size() - start))));
}

std::string encode_png(cairo_surface_t* surface) {
  cairo().surface_flush(surface);
  const int w = cairo().image_surface_get_width(surface), h = cairo().image_surface_get_height(surface);
  const int stride = cairo().image_surface_get_stride(surface);
  const unsigned char* data = cairo().image_surface_get_data(surface);

  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  put_u32(ihdr, static_cast<uint32_t>(w));
  put_u32(ihdr, static_cast<uint32_t>(h));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, adaptive filtering, no interlace
  put_chunk(png, "IHDR", ihdr);

  z_stream z{};
  if (deflateInit2(&z, 3, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw Error("zlib failed to start");
  std::string idat;
  std::vector<unsigned char> row(static_cast<size_t>(w) * 3 + 1), prev(static_cast<size_t>(w) * 3, 0), cur(prev.size());
  unsigned char chunk[1 << 16];
  auto pump = [&](int flush) {
    do {
      z.next_out = chunk;
      z.avail_out = sizeof chunk;
      deflate(&z, flush);
      idat.append(reinterpret_cast<const char*>(chunk), sizeof chunk - z.avail_out);
    } while (z.avail_out == 0);
  };
  for (int y = 0; y < h; ++y) {
    const auto* px = reinterpret_cast<const uint32_t*>(data + static_cast<size_t>(y) * static_cast<size_t>(stride));
    for (int x = 0; x < w; ++x) {  // CAIRO_FORMAT_RGB24: 0x00RRGGBB per pixel
      cur[3 * x] = static_cast<unsigned char>(px[x] >> 16);
      cur[3 * x + 1] = static_cast<unsigned char>(px[x] >> 8);
      cur[3 * x + 2] = static_cast<unsigned char>(px[x]);
    }
    row[0] = y == 0 ? 0 : 2;  // filter None for the first row, Up after
    for (size_t i = 0; i < cur.size(); ++i) row[i + 1] = static_cast<unsigned char>(cur[i] - (y == 0 ? 0 : prev[i]));
    z.next_in = row.data();
    z.avail_in = static_cast<uInt>(row.size());
    pump(Z_NO_FLUSH);
    prev.swap(cur);
  }
  pump(Z_FINISH);
  deflateEnd(&z);
  put_chunk(png, "IDAT", idat);
  put_chunk(png, "IEND", "");
  return png;
}

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void check(cairo_status_t status, const char* what) {
  if (status != CAIRO_STATUS_SUCCESS) throw Error(std::string("Cairo failed to ") + what + ": " + cairo().status_to_string(status));
}

}  // namespace

std::string render_cairo(const Scene& scene, Format format, const RenderOptions& options) {
  const Geometry g = layout(scene, format, options);
  std::string bytes;
  cairo_surface_t* surface =
      format == Format::kPng
          ? cairo().image_surface_create(CAIRO_FORMAT_RGB24, static_cast<int>(g.width), static_cast<int>(g.height))
          : cairo().pdf_surface_create_for_stream(append_bytes, &bytes, g.width, g.height);
  cairo_t* cr = cairo().create(surface);
  try {
    check(cairo().surface_status(surface), "create a surface");
    draw(cr, scene, g);
    check(cairo().status(cr), "draw");
    cairo().destroy(cr);
    cr = nullptr;
    if (format == Format::kPng) {
      bytes = encode_png(surface);
    } else {
      cairo().surface_finish(surface);
      check(cairo().surface_status(surface), "write the PDF");
    }
  } catch (...) {
    if (cr) cairo().destroy(cr);
    cairo().surface_destroy(surface);
    throw;
  }
  cairo().surface_destroy(surface);
  return bytes;
}

#endif

}  // namespace detail

}  // namespace cutevis
