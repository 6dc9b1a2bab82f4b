# add_fuser_library(name sources... [add_mlir_library arguments])
#
# Every Fuser-MLIR library is declared through this wrapper (as CIRCT's
# AddCIRCT.cmake wraps add_mlir_library), so that all of them join one export
# set, FuserMLIRTargets, and one list, FUSER_ALL_LIBS, from which the
# installed CMake package and the umbrella target are made.
function(add_fuser_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  # Usage requirements for consumers of the installed package (the build
  # itself uses the directory-wide include_directories).
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  install(TARGETS ${name}
    EXPORT FuserMLIRTargets
    LIBRARY DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    ARCHIVE DESTINATION lib${LLVM_LIBDIR_SUFFIX}
    RUNTIME DESTINATION bin)
  set_property(GLOBAL APPEND PROPERTY FUSER_ALL_LIBS ${name})
endfunction()
