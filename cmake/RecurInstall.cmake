include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS recur EXPORT recurTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
if(TARGET recur_cli)
  install(TARGETS recur_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY include/recur DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_BINARY_DIR}/include/recur/config.hpp
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/recur)

set(RECUR_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/recur)
install(EXPORT recurTargets NAMESPACE recur:: DESTINATION ${RECUR_INSTALL_CMAKEDIR})
configure_package_config_file(cmake/recurConfig.cmake.in
  ${PROJECT_BINARY_DIR}/recurConfig.cmake
  INSTALL_DESTINATION ${RECUR_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/recurConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/recurConfig.cmake
  ${PROJECT_BINARY_DIR}/recurConfigVersion.cmake
  DESTINATION ${RECUR_INSTALL_CMAKEDIR})
