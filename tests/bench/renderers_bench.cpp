// Benchmarks of renderers/: an atom picture, and the largest picture the brief asks
// for, make_tiled_mma(SM90_64x256x16_F32F16F16_SS<K,K>{}, Layout<Shape<_2,_2,_1>>{})
// (C 128x512 = 65,536 cells; A 128x16 and B 512x16 with 256 owners per cell).
//
// Each benchmark times the whole path a CLI command takes after parsing: the scene
// from the TV layouts, then the bytes.  Targets: the GMMA SVG under 0.3 s, its PNG
// under 1 s, peak memory under 256 MB (the peak_rss_MB counter; run one benchmark
// alone, --benchmark_filter=..., for its own peak).
//
// Build (links cutevis_renderers and cutevis_atoms, Google Benchmark):
//   add_executable(cutevis_renderers_bench renderers_bench.cpp)
//   target_link_libraries(cutevis_renderers_bench PRIVATE cutevis_renderers cutevis_atoms benchmark::benchmark)
#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include "atoms/mma_catalogue.hpp"
#include "atoms/tiled_mma.hpp"
#include "renderers/render.hpp"
#include "renderers/views.hpp"

namespace {

using namespace cutevis;

MmaPicture picture_of(const TiledMma& mma) {
  return MmaPicture{mma.tv_layout_a, mma.tv_layout_b, mma.tv_layout_c, tile_m(mma),
                    tile_n(mma),     tile_k(mma),     mma.num_threads};
}

const MmaPicture& sm70_atom() {
  static const MmaPicture p = picture_of(make_tiled_mma(find_mma_atom("SM70_8x8x4_F32F16F16F32_NT")));
  return p;
}

const MmaPicture& gmma_2x2() {
  static const MmaPicture p =
      picture_of(make_tiled_mma(find_mma_atom("SM90_64x256x16_F32F16F16_SS<K,K>"), make_layout(tup(2, 2, 1))));
  return p;
}

double peak_rss_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
}

void picture(benchmark::State& state, const MmaPicture& pic, Format format) {
  if ((format == Format::kPng || format == Format::kPdf) && !png_supported()) {
    state.SkipWithError("built without Cairo");
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    const Scene scene = mma_scene(pic, {.title = "bench"});
    const std::string out = render(scene, format);
    bytes = out.size();
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["bytes"] = static_cast<double>(bytes);
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

void scene_only(benchmark::State& state, const MmaPicture& pic) {
  for (auto _ : state) {
    const Scene scene = mma_scene(pic);
    benchmark::DoNotOptimize(scene.panels.data());
  }
  state.counters["peak_rss_MB"] = peak_rss_mb();
}

void BM_Sm70AtomSvg(benchmark::State& s) { picture(s, sm70_atom(), Format::kSvg); }
void BM_Sm70AtomTex(benchmark::State& s) { picture(s, sm70_atom(), Format::kTex); }
void BM_Sm70AtomPng(benchmark::State& s) { picture(s, sm70_atom(), Format::kPng); }
void BM_Gmma2x2Scene(benchmark::State& s) { scene_only(s, gmma_2x2()); }
void BM_Gmma2x2Svg(benchmark::State& s) { picture(s, gmma_2x2(), Format::kSvg); }
void BM_Gmma2x2Png(benchmark::State& s) { picture(s, gmma_2x2(), Format::kPng); }
void BM_Gmma2x2Tex(benchmark::State& s) { picture(s, gmma_2x2(), Format::kTex); }
void BM_Gmma2x2Pdf(benchmark::State& s) { picture(s, gmma_2x2(), Format::kPdf); }

}  // namespace

BENCHMARK(BM_Sm70AtomSvg)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sm70AtomTex)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Sm70AtomPng)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gmma2x2Scene)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gmma2x2Svg)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gmma2x2Png)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gmma2x2Tex)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Gmma2x2Pdf)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
