# Finds what the Python module needs (included by the top CMakeLists before any target,
# so that CMAKE_POSITION_INDEPENDENT_CODE reaches every library): the interpreter's headers
# and pybind11.  Sets CUTEVIS_PYTHON_FOUND.  The interpreter is Python_EXECUTABLE when given
# (setup.py passes its own), else Debian's /usr/bin/python3 (a pyenv `python3` earlier on
# PATH would build a module the system interpreter cannot import).
set(CUTEVIS_PYTHON_FOUND OFF)
if(NOT CUTEVIS_PYTHON STREQUAL "OFF" AND NOT CUTEVIS_SANITIZE)
  if(NOT Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python 3.8 COMPONENTS Interpreter Development.Module QUIET)
  if(Python_FOUND)
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 2.6 CONFIG QUIET)
  endif()
  if(Python_FOUND AND pybind11_FOUND)
    set(CUTEVIS_PYTHON_FOUND ON)
    message(STATUS "cutevis: Python module for ${Python_EXECUTABLE} (pybind11 ${pybind11_VERSION})")
  elseif(CUTEVIS_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "CUTEVIS_PYTHON=ON needs the Python headers and pybind11 (python3-dev, pybind11-dev)")
  else()
    message(STATUS "cutevis: no Python module (needs python3-dev and pybind11-dev)")
  endif()
endif()
