# cmake --install: headers under include/stream_compaction, the library targets, and a package
# config, so that find_package(StreamCompaction 0.8 CONFIG) gives StreamCompaction::core, ::io,
# ::sparse and ::stream_compaction.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/stream_compaction/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/stream_compaction
        FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")
install(TARGETS sc_core sc_io sc_sparse stream_compaction
        EXPORT StreamCompactionTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(sc_config_dir ${CMAKE_INSTALL_LIBDIR}/cmake/StreamCompaction)
install(EXPORT StreamCompactionTargets NAMESPACE StreamCompaction:: DESTINATION ${sc_config_dir})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/StreamCompactionConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfig.cmake
                              INSTALL_DESTINATION ${sc_config_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/StreamCompactionConfigVersion.cmake
        DESTINATION ${sc_config_dir})
