# streamcompaction_uncovered_architectures(OUT BUILT WANTED): OUT is the list of the CUDA
# architectures of WANTED (a consumer's CMAKE_CUDA_ARCHITECTURES) on which no code of BUILT (the
# package's) runs. A GPU of architecture A runs SASS of the same major version at or below A
# ("90-real", or "90" that holds both), PTX at or below A ("90-virtual", or "90"), and code for a
# specific architecture ("90a") on that compute capability alone. Keywords (native, all, all-major) are
# not expanded before CMake enables CUDA: nothing is reported for them.
# Installed beside the package config, which warns with it; tests/package/architectures_test.cmake.
function(streamcompaction_uncovered_architectures out built wanted)
  set(uncovered "")
  foreach(arch IN LISTS wanted)
    if(NOT arch MATCHES "^([0-9]+)")
      continue()
    endif()
    set(number ${CMAKE_MATCH_1})
    math(EXPR major "${number} / 10")
    set(covered FALSE)
    foreach(code IN LISTS built)
      if(NOT code MATCHES "^([0-9]+)([af]?)(-real|-virtual)?$")
        continue()
      endif()
      set(code_number ${CMAKE_MATCH_1})
      set(specific "${CMAKE_MATCH_2}")
      set(kind "${CMAKE_MATCH_3}")
      math(EXPR code_major "${code_number} / 10")
      if(specific)
        if(code_number EQUAL number)
          set(covered TRUE)
        endif()
      elseif(NOT kind STREQUAL "-virtual" AND code_major EQUAL major AND code_number LESS_EQUAL number)
        set(covered TRUE)  # SASS, binary compatible within a major version
      elseif(NOT kind STREQUAL "-real" AND code_number LESS_EQUAL number)
        set(covered TRUE)  # PTX, compiled for the GPU when loaded
      endif()
    endforeach()
    if(NOT covered)
      list(APPEND uncovered ${arch})
    endif()
  endforeach()
  set(${out} "${uncovered}" PARENT_SCOPE)
endfunction()
