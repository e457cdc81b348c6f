// cutevis — Json and OrderedJson: the JSON value the inspector and the app write with.
// nlohmann_json's json and ordered_json, or, where CUTEVIS_JSON_LITE is defined (the web
// page's build: web/CMakeLists.txt sets it on cutevis_analysis and all that links it),
// lib/json_lite.hpp's, which write the same bytes with a fraction of the code.  The page
// links JSON only as a writer; the native build, its tests and what reads JSON (verify,
// check, batch, docs) keep nlohmann.  Here, not in app/, because atoms/analysis writes JSON
// too and may not include app/ (ARCHITECTURE.md's arrows).
#pragma once

#ifdef CUTEVIS_JSON_LITE
#include "lib/json_lite.hpp"
#else
#include <nlohmann/json.hpp>
#endif

namespace cutevis {

#ifdef CUTEVIS_JSON_LITE
using Json = json_lite::json;
using OrderedJson = json_lite::ordered_json;
#else
using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;
#endif

}  // namespace cutevis
