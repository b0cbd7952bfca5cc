# cmake --install: headers under include/stream_compaction, the library targets, and a package
# config, so that find_package(StreamCompaction 0.10 CONFIG) gives StreamCompaction::core, ::io,
# ::sparse, ::course, ::distributed_plans and ::stream_compaction, and, in a build with NCCL,
# ::distributed (COMPONENTS distributed; tests/consumers/ builds against it: .ci/consumers.sh).
#
# A parent project that pulls this one in with add_subdirectory gets no install rules unless it
# asks for them (-DSC_INSTALL=ON): its own install should not carry ours by surprise.
option(SC_INSTALL "Generate the install rules (headers, libraries, package config)" ${PROJECT_IS_TOP_LEVEL})
if(NOT SC_INSTALL)
  return()
endif()

include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# Every header of the library, internal ones (detail/, tuning/, support/) included: the public
# headers are templates and include them. Sources and the CMake file stay behind.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/stream_compaction/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/stream_compaction
        FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")

# The include directory comes with each target ($<INSTALL_INTERFACE:include> in
# stream_compaction/CMakeLists.txt), so no INCLUDES DESTINATION here: it would only repeat it.
install(TARGETS sc_core sc_io sc_sparse sc_course sc_distributed stream_compaction
        EXPORT StreamCompactionTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

set(sc_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/StreamCompaction)
install(EXPORT StreamCompactionTargets NAMESPACE StreamCompaction:: DESTINATION ${sc_config_dir})

# The NCCL target in an export set of its own: it links NCCL::nccl, which the package config
# defines (with FindNCCL.cmake, installed beside it) only when the consumer's machine has NCCL.
if(TARGET sc_distributed_nccl)
  install(TARGETS sc_distributed_nccl
          EXPORT StreamCompactionDistributedTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT StreamCompactionDistributedTargets NAMESPACE StreamCompaction:: DESTINATION ${sc_config_dir})
  install(FILES ${PROJECT_SOURCE_DIR}/cmake/FindNCCL.cmake DESTINATION ${sc_config_dir})
endif()

# What the config file reports about this build: the GPU code in the static libraries is compiled
# for these architectures only (consumers' own .cu files are compiled for theirs).
set(SC_PACKAGE_CUDA_ARCHITECTURES "${CMAKE_CUDA_ARCHITECTURES}")
set(SC_PACKAGE_NVTX ${SC_NVTX})
set(SC_PACKAGE_HAVE_NCCL ${SC_HAVE_NCCL})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/StreamCompactionConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfig.cmake
                              INSTALL_DESTINATION ${sc_config_dir})
# 0.x: a minor release may change the API, so 0.10 accepts 0.10.y only (find_package(... 0.10)).
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION}
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/StreamCompactionArchitectures.cmake
        DESTINATION ${sc_config_dir})
