"""pip install --no-index --no-build-isolation .   (offline: Debian's python3-setuptools, pybind11-dev)

setuptools drives CMake: the extension module `cutevis._cutevis` is the CMake target `_cutevis`
(python/CMakeLists.txt), built with the same sources and flags as the `cutevis` command."""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # CUTEVIS_BUILD_DIR: an existing configured build (the tests reuse theirs) is only built
        given = os.environ.get("CUTEVIS_BUILD_DIR")
        build_dir = given or os.path.join(ROOT, "build-pip")
        configure = ["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release", "-DCUTEVIS_TESTS=OFF",
                     "-DCUTEVIS_PYTHON=ON", "-DPython_EXECUTABLE=" + sys.executable]
        if shutil.which("ccache"):
            configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
        if not (given and os.path.exists(os.path.join(build_dir, "CMakeCache.txt"))):
            subprocess.check_call(configure)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "_cutevis", "-j", jobs])
        built = os.path.join(build_dir, "python", "cutevis")
        module = [f for f in os.listdir(built) if f.startswith("_cutevis") and f.endswith(".so")]
        if not module:
            raise RuntimeError("cmake built no _cutevis module in " + built)
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, module[0]), target)


setup(
    name="cutevis",
    version="0.1.0",
    description="CuTe layouts, TiledMMAs and TiledCopies: evaluate, draw, analyse (the cutevis engine)",
    packages=["cutevis"],
    package_dir={"": "python"},
    ext_modules=[CMakeExtension("cutevis._cutevis")],
    cmdclass={"build_ext": CMakeBuild},
    python_requires=">=3.8",
    zip_safe=False,
)
