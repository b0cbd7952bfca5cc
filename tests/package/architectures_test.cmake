# cmake -P: streamcompaction_uncovered_architectures, whose answer the installed package config
# turns into a configure-time warning (CTest: package.architectures).
include(${CMAKE_CURRENT_LIST_DIR}/../../cmake/StreamCompactionArchitectures.cmake)

set(failures 0)
function(expect built wanted expected)
  streamcompaction_uncovered_architectures(got "${built}" "${wanted}")
  if(NOT "${got}" STREQUAL "${expected}")
    message(SEND_ERROR "package built for '${built}', consumer '${wanted}': uncovered '${got}', expected '${expected}'")
  endif()
endfunction()

expect("90" "90" "")                        # the default build, a Hopper consumer
expect("90" "75" "75")                      # nvcc 13's default architecture: no code for it
expect("90" "80;86;90" "80;86")
expect("90" "100;120" "")                   # compute_90 PTX is compiled for newer GPUs when loaded
expect("90-real" "100" "100")               # SASS alone does not run on another major version
expect("80-real" "86;89" "")                # SASS runs on later GPUs of its major version
expect("86-real" "80" "80")                 # ... not on earlier ones
expect("75-virtual" "75;80;90" "")          # PTX alone covers every later GPU
expect("90a" "90;100" "100")                # arch-specific code runs on compute capability 9.0 alone
expect("90a;90-virtual" "90a;100" "")
expect("90" "native" "")                    # keywords are not expanded before CUDA is enabled
expect("90" "90-virtual;80-real" "80-real")
message(STATUS "package.architectures: every case as expected")
