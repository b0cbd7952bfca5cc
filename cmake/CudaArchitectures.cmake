# The CUDA architectures of a build, chosen before project() (CMake reads CMAKE_CUDA_ARCHITECTURES
# when it enables CUDA). Given (-DCMAKE_CUDA_ARCHITECTURES=..., or the CUDAARCHS environment
# variable): used as given. Not given: the GPUs of this machine, as nvidia-smi reports their compute
# capabilities (what `native` means, written out so that the cache and the message name them);
# without a GPU, 90 (the H100 and H200). The choice is cached, so a reconfigure keeps it, and
# sc_report_cuda_architectures() states it and how it was made at every configure.
set(SC_DEFAULT_CUDA_ARCHITECTURES 90)

# The compute capabilities of this machine's GPUs, "86;90" style, or "" where nvidia-smi is
# missing or finds none.
function(sc_detect_gpu_architectures out_list out_names)
  set(${out_list} "" PARENT_SCOPE)
  set(${out_names} "" PARENT_SCOPE)
  find_program(SC_NVIDIA_SMI nvidia-smi)
  if(NOT SC_NVIDIA_SMI)
    return()
  endif()
  execute_process(COMMAND ${SC_NVIDIA_SMI} --query-gpu=compute_cap,name --format=csv,noheader
                  OUTPUT_VARIABLE rows RESULT_VARIABLE failed ERROR_QUIET TIMEOUT 20)
  if(failed)
    return()
  endif()
  string(REPLACE "\n" ";" rows "${rows}")
  set(list "")
  set(names "")
  foreach(row IN LISTS rows)
    if(row MATCHES "^ *([0-9]+)\\.([0-9]+) *, *(.+)$")
      list(APPEND list "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      list(APPEND names "${CMAKE_MATCH_3}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES list)
  list(SORT list COMPARE NATURAL)
  list(REMOVE_DUPLICATES names)
  set(${out_list} "${list}" PARENT_SCOPE)
  string(REPLACE ";" ", " names "${names}")
  set(${out_names} "${names}" PARENT_SCOPE)
endfunction()

if(DEFINED CMAKE_CUDA_ARCHITECTURES)
  if(NOT "${CMAKE_CUDA_ARCHITECTURES}" STREQUAL "${SC_CHOSEN_CUDA_ARCHITECTURES}")
    set(SC_CUDA_ARCHITECTURES_SOURCE "as given (CMAKE_CUDA_ARCHITECTURES)" CACHE INTERNAL "")
  endif()
elseif(DEFINED ENV{CUDAARCHS})
  set(SC_CUDA_ARCHITECTURES_SOURCE "as given (the CUDAARCHS environment variable)" CACHE INTERNAL "")
else()
  sc_detect_gpu_architectures(sc_gpu_architectures sc_gpu_names)
  if(sc_gpu_architectures)
    set(sc_chosen "${sc_gpu_architectures}")
    set(SC_CUDA_ARCHITECTURES_SOURCE "the GPU of this machine (${sc_gpu_names}, from nvidia-smi)" CACHE INTERNAL "")
  else()
    set(sc_chosen "${SC_DEFAULT_CUDA_ARCHITECTURES}")
    set(SC_CUDA_ARCHITECTURES_SOURCE "the default: no GPU seen at configure (nvidia-smi)" CACHE INTERNAL "")
  endif()
  set(CMAKE_CUDA_ARCHITECTURES "${sc_chosen}" CACHE STRING
      "CUDA architectures of the GPU code (default: this machine's GPUs, else ${SC_DEFAULT_CUDA_ARCHITECTURES})")
  # What was chosen, so that a reconfigure can tell it from a value the user gave.
  set(SC_CHOSEN_CUDA_ARCHITECTURES "${sc_chosen}" CACHE INTERNAL "")
endif()

# After project(): one line saying what the GPU code is compiled for, why, and how to change it.
# Also sets SC_CUDA_ARCHITECTURES_TEXT ("86 90"), which probe_device names when a binary has no
# code for the GPU it runs on.
function(sc_report_cuda_architectures)
  message(STATUS "CUDA architectures: ${CMAKE_CUDA_ARCHITECTURES}, ${SC_CUDA_ARCHITECTURES_SOURCE}. For other GPUs: "
                 "-DCMAKE_CUDA_ARCHITECTURES=<list> (e.g. \"86;90\", native or all-major)")
  string(REPLACE ";" " " text "${CMAKE_CUDA_ARCHITECTURES}")
  set(SC_CUDA_ARCHITECTURES_TEXT "${text}" PARENT_SCOPE)
endfunction()
