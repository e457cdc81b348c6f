// PNGs decoded by a maintained decoder: Cairo's own reader
// (cairo_image_surface_create_from_png_stream, i.e. libpng, which checks the
// signature, every critical chunk's CRC, the zlib stream and its Adler-32, and each
// row's filter).  Cairo is loaded with dlopen as renderers/cairo.cpp loads it, so a
// test needs no link or include flags for it.
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>

namespace cutevis::test {

// The decoded image, held in Cairo's surface (a 20,000 x 6,000 px picture is 480 MB:
// not copied).
struct DecodedPng {
  std::string error;  // empty when decoded
  int width = 0, height = 0;
  // Pixel (x, y) as 0x00RRGGBB.
  uint32_t at(int x, int y) const {
    return reinterpret_cast<const uint32_t*>(data + static_cast<size_t>(y) * static_cast<size_t>(stride))[x] &
           0xffffffu;
  }

  std::shared_ptr<void> surface;
  const unsigned char* data = nullptr;
  int stride = 0;
};

namespace png_detail {

// The few Cairo functions used, declared as in cairo.h (opaque surface, int status).
struct Cairo {
  using Read = int (*)(void*, unsigned char*, unsigned int);
  void* (*create_from_png_stream)(Read, void*) = nullptr;
  int (*surface_status)(void*) = nullptr;
  const char* (*status_to_string)(int) = nullptr;
  int (*get_width)(void*) = nullptr;
  int (*get_height)(void*) = nullptr;
  int (*get_stride)(void*) = nullptr;
  unsigned char* (*get_data)(void*) = nullptr;
  void (*surface_flush)(void*) = nullptr;
  void (*surface_destroy)(void*) = nullptr;
  bool ok = false;
};

inline const Cairo& cairo() {
  static const Cairo api = [] {
    Cairo c;
    void* lib = dlopen("libcairo.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return c;
    auto bind = [&](auto& f, const char* name) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(lib, name));
      return f != nullptr;
    };
    c.ok = bind(c.create_from_png_stream, "cairo_image_surface_create_from_png_stream") &&
           bind(c.surface_status, "cairo_surface_status") && bind(c.status_to_string, "cairo_status_to_string") &&
           bind(c.get_width, "cairo_image_surface_get_width") && bind(c.get_height, "cairo_image_surface_get_height") &&
           bind(c.get_stride, "cairo_image_surface_get_stride") && bind(c.get_data, "cairo_image_surface_get_data") &&
           bind(c.surface_flush, "cairo_surface_flush") && bind(c.surface_destroy, "cairo_surface_destroy");
    return c;
  }();
  return api;
}

struct Reader {
  const std::string* bytes;
  size_t at = 0;
};

inline int read(void* closure, unsigned char* data, unsigned int length) {
  auto* r = static_cast<Reader*>(closure);
  if (r->at + length > r->bytes->size()) return 11;  // CAIRO_STATUS_READ_ERROR: the file ends early
  std::memcpy(data, r->bytes->data() + r->at, length);
  r->at += length;
  return 0;  // CAIRO_STATUS_SUCCESS
}

}  // namespace png_detail

// Whether decode_png can run here (Cairo's library is installed).
inline bool png_decoder_available() { return png_detail::cairo().ok; }

// Decodes `bytes` completely; error says why it could not.
inline DecodedPng decode_png(const std::string& bytes) {
  DecodedPng out;
  const png_detail::Cairo& c = png_detail::cairo();
  if (!c.ok) {
    out.error = "libcairo.so.2 could not be loaded";
    return out;
  }
  png_detail::Reader reader{&bytes};
  void* surface = c.create_from_png_stream(png_detail::read, &reader);
  if (const int status = c.surface_status(surface); status != 0) {
    out.error = std::string("Cairo could not decode the PNG: ") + c.status_to_string(status);
    c.surface_destroy(surface);
    return out;
  }
  c.surface_flush(surface);
  out.surface = std::shared_ptr<void>(surface, c.surface_destroy);
  out.width = c.get_width(surface);
  out.height = c.get_height(surface);
  out.stride = c.get_stride(surface);
  out.data = c.get_data(surface);
  return out;
}

}  // namespace cutevis::test
