# FindNCCL: NCCL's header and library, searched in this order:
#   1. NCCL_ROOT (CMake variable or environment; also NCCL_HOME), then NCCL_INCLUDE_DIR /
#      NCCL_LIBRARY given directly;
#   2. the CUDA toolkit's directories (CUDA 13 ships nccl.h and libnccl beside the runtime);
#   3. the Python wheel nvidia-nccl-cu12 / -cu13 (pulled in by PyTorch and others):
#      site-packages/nvidia/nccl/{include,lib}, found through the interpreter's own import path
#      (`python3 -c "import nvidia.nccl"`) and, failing that, by a glob over its site-packages;
#   4. the system's default places.
# The wheel ships lib/libnccl.so.2 without the unversioned libnccl.so, so the library is looked up
# under both names, each directory in turn (NAMES_PER_DIR: a hinted directory holding only
# libnccl.so.2 wins over a system libnccl.so).
#
# Defines NCCL_FOUND, NCCL_INCLUDE_DIR, NCCL_LIBRARY, NCCL_VERSION (from nccl.h) and the imported
# target NCCL::nccl. CMake puts the library's directory in the build tree's RPATH, so programs
# linked to a wheel's libnccl.so.2 run from the build tree without LD_LIBRARY_PATH.

set(_nccl_roots)
foreach(_root IN ITEMS "${NCCL_ROOT}" "$ENV{NCCL_ROOT}" "$ENV{NCCL_HOME}")
  if(_root)
    list(APPEND _nccl_roots "${_root}")
  endif()
endforeach()
if(CUDAToolkit_LIBRARY_ROOT)
  list(APPEND _nccl_roots "${CUDAToolkit_LIBRARY_ROOT}")
endif()
set(_nccl_include_hints ${CUDAToolkit_INCLUDE_DIRS})
set(_nccl_library_hints ${CUDAToolkit_LIBRARY_DIR})

# The Python wheel's folder. nvidia.nccl may be a namespace package (no __init__.py, so no
# __file__): its __path__ is asked for instead.
find_program(_nccl_python NAMES python3 python)
if(_nccl_python)
  execute_process(
    COMMAND "${_nccl_python}" -c "import nvidia.nccl as m; print(list(m.__path__)[0])"
    OUTPUT_VARIABLE _nccl_wheel_dir OUTPUT_STRIP_TRAILING_WHITESPACE
    RESULT_VARIABLE _nccl_wheel_result ERROR_QUIET)
  if(_nccl_wheel_result EQUAL 0 AND IS_DIRECTORY "${_nccl_wheel_dir}")
    list(APPEND _nccl_roots "${_nccl_wheel_dir}")
  else()
    execute_process(
      COMMAND "${_nccl_python}" -c
              "import site, sys; print(';'.join(site.getsitepackages() + [site.getusersitepackages()] + sys.path))"
      OUTPUT_VARIABLE _nccl_site_dirs OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    foreach(_site IN LISTS _nccl_site_dirs)
      if(_site AND IS_DIRECTORY "${_site}/nvidia")
        file(GLOB _nccl_globbed LIST_DIRECTORIES true "${_site}/nvidia/nccl" "${_site}/nvidia/cu*/")
        foreach(_dir IN LISTS _nccl_globbed)
          if(EXISTS "${_dir}/include/nccl.h")
            list(APPEND _nccl_roots "${_dir}")
          endif()
        endforeach()
      endif()
    endforeach()
  endif()
endif()

find_path(NCCL_INCLUDE_DIR nccl.h
  HINTS ${_nccl_roots} ${_nccl_include_hints}
  PATH_SUFFIXES include)
find_library(NCCL_LIBRARY NAMES nccl libnccl.so.2 NAMES_PER_DIR
  HINTS ${_nccl_roots} ${_nccl_library_hints}
  PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu)

if(NCCL_INCLUDE_DIR AND EXISTS "${NCCL_INCLUDE_DIR}/nccl.h")
  file(STRINGS "${NCCL_INCLUDE_DIR}/nccl.h" _nccl_version_lines REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) +[0-9]+")
  foreach(_part MAJOR MINOR PATCH)
    string(REGEX REPLACE ".*#define NCCL_${_part} +([0-9]+).*" "\\1" _nccl_${_part} "${_nccl_version_lines}")
  endforeach()
  set(NCCL_VERSION "${_nccl_MAJOR}.${_nccl_MINOR}.${_nccl_PATCH}")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(NCCL
  REQUIRED_VARS NCCL_LIBRARY NCCL_INCLUDE_DIR
  VERSION_VAR NCCL_VERSION)

if(NCCL_FOUND AND NOT TARGET NCCL::nccl)
  add_library(NCCL::nccl UNKNOWN IMPORTED)
  set_target_properties(NCCL::nccl PROPERTIES
    IMPORTED_LOCATION "${NCCL_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${NCCL_INCLUDE_DIR}")
endif()
mark_as_advanced(NCCL_INCLUDE_DIR NCCL_LIBRARY _nccl_python)
