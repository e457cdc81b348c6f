// PNG and PDF through Cairo (optional: CUTEVIS_HAVE_CAIRO).
//
// Cells are as large as the longest label needs at 9 px (kMinLabelPx; at least 28 px
// for PNG, 20 pt for PDF), or --cell; --scale multiplies everything.  Only past
// RenderOptions' limits (32k px a side, 400 megapixels; PDF's 200 inches) do cells
// shrink, and then labels under 9 px are dropped and the legend says so.  PNGs are
// drawn in bands into one reused surface and streamed through zlib, so memory stays
// ~50 MB whatever the image's size.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "lib/error.hpp"
#include "renderers/backends.hpp"
#include "renderers/palette.hpp"

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
  X(create)                        \
  X(destroy)                       \
  X(fill)                          \
  X(image_surface_create)          \
  X(image_surface_get_data)        \
  X(image_surface_get_stride)      \
  X(move_to)                       \
  X(paint)                         \
  X(pdf_surface_create_for_stream) \
  X(rectangle)                     \
  X(rel_line_to)                   \
  X(scale)                         \
  X(translate)                     \
  X(select_font_face)              \
  X(set_font_size)                 \
  X(set_line_width)                \
  X(set_source_rgb)                \
  X(show_text)                     \
  X(status)                        \
  X(status_to_string)              \
  X(stroke)                        \
  X(surface_destroy)               \
  X(surface_finish)                \
  X(surface_flush)                 \
  X(surface_status)                \
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
#define CUTEVIS_CAIRO_BIND(f)                                       \
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
    throw Error(
        "PNG and PDF output need the Cairo library (libcairo.so.2), which could not be loaded "
        "(Debian: apt-get install libcairo2); --svg and --tex need nothing");
  return *api;
}

const char* kFont = "DejaVu Sans Mono";
constexpr double kMargin = 12;
constexpr double kTitleFont = 16, kLegendFont = 13, kCaptionFont = 15;
constexpr double kBandBytes = 48e6;  // PNG: drawn in bands of at most this many bytes

// Everything in units: PNG pixels at scale 1, PDF points.  The surface is `scale` times larger.
struct Geometry {
  double cell = 0;
  double width = 0, height = 0;
  double title_h = 0, legend_line = 0;
  double x0 = 0, y0 = 0;           // canvas position of scene cell corner (0,0)
  std::vector<double> label_font;  // per panel; below kMinLabelPx: no labels
  double axis_font = 0;
  bool axis_labels = true;
  double scale = 1;
  std::vector<std::string> legend;
};

void set_rgb(cairo_t* cr, const Rgb& c) { cairo().set_source_rgb(cr, c.r / 255.0, c.g / 255.0, c.b / 255.0); }

double text_width(cairo_t* cr, const std::string& s, double size, bool bold) {
  cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
  cairo().set_font_size(cr, size);
  cairo_text_extents_t e;
  cairo().text_extents(cr, s.c_str(), &e);
  return e.x_advance;
}

// Text centred at (cx, cy): lines stacked around the middle.  Monospace: a line's
// width is its character count times the advance, no measuring per call.
void centred(cairo_t* cr, double cx, double cy, double size, const std::vector<std::string>& lines, double advance) {
  cairo().set_font_size(cr, size);
  const double step = 1.15 * size, n = static_cast<double>(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const double baseline = cy + (static_cast<double>(i) - (n - 1) / 2) * step + 0.35 * size;
    cairo().move_to(cr, cx - advance * size * static_cast<double>(display_width(lines[i])) / 2, baseline);
    cairo().show_text(cr, lines[i].c_str());
  }
}

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

Geometry layout(const Scene& scene, Format format, const RenderOptions& opt) {
  Geometry g;
  const Scene::Bounds b = scene.bounds();
  const double cols = static_cast<double>(b.cols()), rows = static_cast<double>(b.rows());
  g.legend = scene.legend;
  g.scale = format == Format::kPng ? opt.scale : opt.scale;
  g.title_h = scene.title.empty() ? 0 : std::ceil(kTitleFont * 1.7);
  g.legend_line = std::ceil(kLegendFont * 1.45);

  // Text widths, measured on a scratch surface.
  cairo_surface_t* scratch = cairo().image_surface_create(CAIRO_FORMAT_RGB24, 1, 1);
  cairo_t* cr = cairo().create(scratch);
  double text_w = text_width(cr, scene.title, kTitleFont, true);
  for (const auto& line : g.legend) text_w = std::max(text_w, text_width(cr, line, kLegendFont, false));
  cairo().destroy(cr);
  cairo().surface_destroy(scratch);
  text_w += 120;  // room for the notes added below
  const double text_h = g.title_h + 8 + g.legend_line * static_cast<double>(g.legend.size() + 2);

  const LabelFit fit = fit_labels(scene, format, opt);
  g.cell = fit.cell;
  g.label_font = fit.label_font;
  const std::string limit_note = fit.limit_note;
  std::string unlabelled;
  for (const std::string& name : fit.omitted) unlabelled += (unlabelled.empty() ? "" : ", ") + name;
  size_t axis_chars = 1;
  for (const Panel& p : scene.panels) {
    for (const auto& t : p.row_axis.text) axis_chars = std::max(axis_chars, t.size());
    for (const auto& t : p.col_axis.text) axis_chars = std::max(axis_chars, t.size());
  }
  g.axis_font = std::min(12.0, 0.95 * g.cell / (0.6 * static_cast<double>(axis_chars)));
  g.axis_labels = g.axis_font >= kMinLabelPx - 1 - 1e-9;
  if (!limit_note.empty()) g.legend.push_back(limit_note);
  if (!unlabelled.empty())
    g.legend.push_back("labels omitted (" + unlabelled + "): cells of " + number(g.cell) +
                       (format == Format::kPng ? " px" : " pt") + " are too small for " + number(kMinLabelPx) +
                       " px labels; use --svg or --html (every owner on hover)" +
                       (opt.cell > 0 ? " or a larger --cell" : ""));
  g.width = std::ceil(std::max(cols * g.cell, text_w) + 2 * kMargin);
  g.height = std::ceil(rows * g.cell + text_h + 2 * kMargin);
  g.x0 = kMargin - static_cast<double>(b.col_min) * g.cell;
  g.y0 = kMargin + g.title_h - static_cast<double>(b.row_min) * g.cell;
  return g;
}

// Draws what falls in rows [top, bottom) of the canvas (units); the whole picture
// when the range covers it.  Cells outside the range are skipped, so a band costs
// only its own cells.
void draw(cairo_t* cr, const Scene& scene, const Geometry& g, double top, double bottom) {
  cairo().set_source_rgb(cr, 1, 1, 1);
  cairo().paint(cr);
  const double u = g.cell;
  // Crisp 1-px lines on pixel boundaries when cells are whole pixels.
  const double line = u >= 8 ? 1.0 : 0.5;

  if (!scene.title.empty() && kMargin < bottom) {
    cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo().set_font_size(cr, kTitleFont);
    cairo().set_source_rgb(cr, 0, 0, 0);
    cairo().move_to(cr, kMargin, kMargin + kTitleFont);
    cairo().show_text(cr, scene.title.c_str());
  }

  for (size_t i = 0; i < scene.panels.size(); ++i) {
    const Panel& p = scene.panels[i];
    const double px = g.x0 + static_cast<double>(p.col0) * u, py = g.y0 + static_cast<double>(p.row0) * u;
    // The panel's rows in the band, with one row of slack for axis labels and captions.
    const int64_t r_lo = std::clamp<int64_t>(static_cast<int64_t>(std::floor((top - py) / u)) - 1, 0, p.rows);
    const int64_t r_hi = std::clamp<int64_t>(static_cast<int64_t>(std::ceil((bottom - py) / u)) + 1, 0, p.rows);
    // Fills: runs of equal colour along each row.
    for (int64_t r = r_lo; r < r_hi; ++r)
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
    for (int64_t r = r_lo; r <= r_hi; ++r) {
      cairo().move_to(cr, px, py + static_cast<double>(r) * u + off);
      cairo().rel_line_to(cr, w, 0);
    }
    for (int64_t c = 0; c <= p.cols; ++c) {
      cairo().move_to(cr, px + static_cast<double>(c) * u + off, py);
      cairo().rel_line_to(cr, 0, h);
    }
    cairo().stroke(cr);
    for (int64_t r = std::max<int64_t>(r_lo, 1); r < std::min(r_hi + 1, p.rows); ++r)
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
    if (g.label_font[i] >= kMinLabelPx - 1e-9) {
      std::vector<std::string> lines;
      for (int64_t r = r_lo; r < r_hi; ++r)
        for (int64_t c = 0; c < p.cols; ++c) {
          const Cell& cell = p.cell(r, c);
          if (cell.label.empty()) continue;
          if (cell.emphasis == Emphasis::kFaded) set_rgb(cr, kFadedText);
          else cairo().set_source_rgb(cr, 0, 0, 0);
          lines = split_lines(cell.label);
          centred(cr, px + (static_cast<double>(c) + 0.5) * u, py + (static_cast<double>(r) + 0.5) * u, g.label_font[i],
                  lines, 0.6);
        }
    }
    cairo().set_source_rgb(cr, 0, 0, 0);
    if (g.axis_labels) {
      if (p.row_axis.side != AxisLabels::Side::kNone) {
        const double cx = p.row_axis.side == AxisLabels::Side::kRight ? px + w + u / 2 : px - u / 2;
        for (int64_t r = r_lo; r < r_hi; ++r)
          centred(cr, cx, py + (static_cast<double>(r) + 0.5) * u, g.axis_font,
                  {p.row_axis.text[static_cast<size_t>(r)]}, 0.6);
      }
      if (p.col_axis.side == AxisLabels::Side::kTop && py - u < bottom && py > top)
        for (int64_t c = 0; c < p.cols; ++c)
          centred(cr, px + (static_cast<double>(c) + 0.5) * u, py - u / 2, g.axis_font,
                  {p.col_axis.text[static_cast<size_t>(c)]}, 0.6);
    }
    if (!p.caption.empty()) {
      cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
      centred(cr, g.x0 + (p.caption_col + 0.5) * u, g.y0 + (p.caption_row + 0.5) * u,
              std::max(kCaptionFont * 0.8, std::min(kCaptionFont, u)), {p.caption}, 0.6);
    }
  }

  cairo().select_font_face(cr, kFont, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
  cairo().set_font_size(cr, kLegendFont);
  cairo().set_source_rgb(cr, 0, 0, 0);
  const double legend_top = g.height - kMargin - g.legend_line * static_cast<double>(g.legend.size());
  if (legend_top < bottom)
    for (size_t i = 0; i < g.legend.size(); ++i) {
      cairo().move_to(cr, kMargin, legend_top + g.legend_line * static_cast<double>(i) + kLegendFont);
      cairo().show_text(cr, g.legend[i].c_str());
    }
}

// PNG straight through zlib, a band of rows at a time: each row filtered "Up" (a
// grid repeats its rows, so most filtered bytes are 0) and deflated at level 3.
// Why not Cairo's own writer (cairo_surface_write_to_png_stream: libpng, adaptive
// filters, level 6, the whole image in one surface)?  Measured (issue 10) with that
// writer patched in, whole process, medians of 5, 2 shared cores at load ~13:
//   2x2 64x256x16 GMMA, 20,240 x 5,817 px:  this encoder 1.33 s CPU, 139 MB max RSS,
//     8.2 MB file;  Cairo's writer 4.00 s CPU, 500 MB max RSS, 5.0 MB file.
//   SM80 16x8x16 atom:  0.01 s CPU, 15 MB, 175 kB;  Cairo's 0.03 s, 16 MB, 150 kB.
//   SM80 2x2 TiledMMA:  0.04 s CPU, 24 MB, 657 kB;  Cairo's 0.11 s, 24 MB, 583 kB.
// Cairo's writer would miss both of issue 12's goals for the big picture (< 1.5 s,
// < 512 MB: its surface alone is 471 MB) and is no faster on small ones, so the
// encoder stays; its files are 1.1-1.6x larger.  Its output is checked by decoding
// it with Cairo's own reader (tests/renderers/formats_test.cpp).
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

cairo_status_t append_bytes(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

void check(cairo_status_t status, const char* what) {
  if (status != CAIRO_STATUS_SUCCESS)
    throw Error(std::string("Cairo failed to ") + what + ": " + cairo().status_to_string(status));
}

// One band of the image, filtered and deflated on its own (a raw deflate stream
// ended on a byte boundary, as pigz does), so bands are drawn and compressed in
// parallel and concatenated into one IDAT.  The band's first row is filtered None,
// the others Up; a row equal to the one above (most rows of a grid) filters to zeros
// without being converted.
struct Band {
  std::string deflated;
  uLong adler = 1;  // adler32 of the band's filtered bytes
  size_t length = 0;
};

Band encode_band(const unsigned char* data, int stride, int width, int rows, bool last) {
  Band band;
  z_stream z{};
  if (deflateInit2(&z, 3, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) throw Error("zlib failed to start");
  const size_t w = static_cast<size_t>(width);
  std::vector<unsigned char> row(w * 3 + 1);
  unsigned char chunk[1 << 16];
  auto pump = [&](int flush) {
    do {
      z.next_out = chunk;
      z.avail_out = sizeof chunk;
      deflate(&z, flush);
      band.deflated.append(reinterpret_cast<const char*>(chunk), sizeof chunk - z.avail_out);
    } while (z.avail_out == 0);
  };
  const uint32_t* above = nullptr;
  bool zeros = false;
  for (int y = 0; y < rows; ++y) {
    const auto* px = reinterpret_cast<const uint32_t*>(data + static_cast<size_t>(y) * static_cast<size_t>(stride));
    if (above && std::memcmp(px, above, w * 4) == 0) {
      if (!zeros) std::fill(row.begin() + 1, row.end(), 0), zeros = true;
      row[0] = 2;
    } else {
      unsigned char* out = row.data() + 1;
      row[0] = above ? 2 : 0;
      for (size_t x = 0; x < w; ++x) {  // CAIRO_FORMAT_RGB24: 0x00RRGGBB per pixel
        const uint32_t p = px[x], q = above ? above[x] : 0;
        out[3 * x] = static_cast<unsigned char>((p >> 16) - (q >> 16));
        out[3 * x + 1] = static_cast<unsigned char>((p >> 8) - (q >> 8));
        out[3 * x + 2] = static_cast<unsigned char>(p - q);
      }
      zeros = false;
    }
    above = px;
    band.adler = adler32(band.adler, row.data(), static_cast<uInt>(row.size()));
    band.length += row.size();
    z.next_in = row.data();
    z.avail_in = static_cast<uInt>(row.size());
    pump(Z_NO_FLUSH);
  }
  pump(last ? Z_FINISH : Z_SYNC_FLUSH);
  deflateEnd(&z);
  return band;
}

// The PNG, drawn in bands by a few threads, each with its own surface.
std::string render_png(const Scene& scene, const Geometry& g) {
  const int width = static_cast<int>(std::ceil(g.width * g.scale)),
            height = static_cast<int>(std::ceil(g.height * g.scale));
  const int band_rows = std::clamp(static_cast<int>(kBandBytes / (4.0 * width)), 16, height);
  const int bands = (height + band_rows - 1) / band_rows;
  std::vector<Band> encoded(static_cast<size_t>(bands));
  std::atomic<int> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  auto worker = [&] {
    cairo_surface_t* surface = cairo().image_surface_create(CAIRO_FORMAT_RGB24, width, band_rows);
    cairo_t* cr = nullptr;
    try {
      check(cairo().surface_status(surface), "create a surface");
      for (int k; (k = next.fetch_add(1)) < bands;) {
        const int y = k * band_rows, rows = std::min(band_rows, height - y);
        cr = cairo().create(surface);
        cairo().translate(cr, 0, -y);
        cairo().scale(cr, g.scale, g.scale);
        draw(cr, scene, g, y / g.scale, (y + rows) / g.scale);
        check(cairo().status(cr), "draw");
        cairo().destroy(cr);
        cr = nullptr;
        cairo().surface_flush(surface);
        encoded[static_cast<size_t>(k)] =
            encode_band(cairo().image_surface_get_data(surface), cairo().image_surface_get_stride(surface), width, rows,
                        k == bands - 1);
      }
    } catch (...) {
      std::lock_guard<std::mutex> hold(failure_lock);
      if (!failure) failure = std::current_exception();
      next = bands;
    }
    if (cr) cairo().destroy(cr);
    cairo().surface_destroy(surface);
  };
  const int threads = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, std::min(4, bands));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);

  std::string png("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  put_u32(ihdr, static_cast<uint32_t>(width));
  put_u32(ihdr, static_cast<uint32_t>(height));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, adaptive filtering, no interlace
  put_chunk(png, "IHDR", ihdr);
  std::string idat("\x78\x01", 2);  // zlib header: deflate, 32K window
  uLong adler = 1;
  for (Band& b : encoded) {
    idat += b.deflated;
    adler = adler32_combine(adler, b.adler, static_cast<z_off_t>(b.length));
    std::string().swap(b.deflated);
  }
  put_u32(idat, static_cast<uint32_t>(adler));
  put_chunk(png, "IDAT", idat);
  put_chunk(png, "IEND", "");
  return png;
}

}  // namespace

std::string render_cairo(const Scene& scene, Format format, const RenderOptions& options) {
  const Geometry g = layout(scene, format, options);
  if (format == Format::kPng) return render_png(scene, g);
  std::string bytes;
  cairo_surface_t* surface =
      cairo().pdf_surface_create_for_stream(append_bytes, &bytes, g.width * g.scale, g.height * g.scale);
  cairo_t* cr = cairo().create(surface);
  try {
    check(cairo().surface_status(surface), "create a surface");
    cairo().scale(cr, g.scale, g.scale);
    draw(cr, scene, g, 0, g.height);
    check(cairo().status(cr), "draw");
    cairo().destroy(cr);
    cr = nullptr;
    cairo().surface_finish(surface);
    check(cairo().surface_status(surface), "write the PDF");
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
