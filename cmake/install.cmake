# cmake --install of a target build: a prefix that several targets share (DESIGN.md §8), relocatable (every file
# finds the prefix from its own location):
#
#   bin/oshrun, bin/oshcc, bin/oshc++                 the launcher and the compiler wrappers (one for all targets)
#   include/shmem.h ...                               the headers (the same for every target)
#   lib/<target>/libshmem.a, *.ld, oshcc.conf         the library with its startup code, the linker scripts, the
#                                                     wrappers' settings
#   lib/cmake/libshmem/                               the CMake package: libshmemConfig.cmake (+ version file),
#                                                     libshmem-<target>.cmake (the imported target libshmem::shmem),
#                                                     toolchain-<target>.cmake, add_shmem_executable/add_shmem_test,
#                                                     target.cmake and targets/<target>.cmake (the target's facts)
#   lib/pkgconfig/libshmem-<target>.pc                pkg-config
#   share/libshmem/targets                            the targets installed here, the first is the wrappers' default
#
# Included by shmem/CMakeLists.txt, where the library's link settings are known. Every setting a program needs is
# computed once here and written into the three forms (oshcc.conf, the CMake package, the .pc file).

set(_inst_lib "lib/${SHMEM_TARGET}")
set(_inst_cmake "lib/cmake/libshmem")
set(_gen "${PROJECT_BINARY_DIR}/install-files")

# What a program is compiled and linked with, beyond the toolchain's compiler: @PREFIX@ and @LIBDIR@ stand for
# the installed prefix and lib/<target>.
get_filename_component(_lds_name "${LINKER_SCRIPT}" NAME)
if(DRAM_CODE_SCRIPT STREQUAL LINKER_SCRIPT)
  set(_dram_name "")
else()
  get_filename_component(_dram_name "${DRAM_CODE_SCRIPT}" NAME)
endif()
string(REPLACE ";" " " _port_link "${SHMEM_PORT_LINK_OPTIONS}")
set(_port_libs "")  # " -lm": the port's libraries, after libshmem
foreach(_l IN LISTS SHMEM_PORT_LINK_LIBRARIES)
  string(APPEND _port_libs " -l${_l}")
endforeach()
set(SHMEM_USER_ARCH_FLAGS "${SHMEM_ARCH_FLAGS}")
set(SHMEM_USER_CFLAGS "-I@PREFIX@/include -ffunction-sections -fdata-sections")
set(SHMEM_USER_CXXFLAGS "-fno-exceptions -fno-rtti")
string(STRIP "${CMAKE_EXE_LINKER_FLAGS_INIT} -L@LIBDIR@ -Wl,--gc-sections ${_port_link}" SHMEM_USER_LDFLAGS)
string(REGEX REPLACE " +" " " SHMEM_USER_LDFLAGS "${SHMEM_USER_LDFLAGS}")
if(NOT DEFINED SHMEM_CXX_RUNTIME)
  set(SHMEM_CXX_RUNTIME none)
endif()

# oshcc.conf (sourced by bin/oshcc, bin/oshc++): every value in single quotes, each ' in it written as '\'' so that
# a note or a path with an apostrophe stays one shell word.
foreach(_v SHMEM_TARGET_NOTE SHMEM_USER_ARCH_FLAGS SHMEM_USER_CFLAGS SHMEM_USER_CXXFLAGS SHMEM_USER_LDFLAGS)
  string(REPLACE "'" "'\\''" _q_${_v} "${${_v}}")
endforeach()
string(REPLACE "'" "'\\''" _q_cc "${CMAKE_C_COMPILER}")
string(REPLACE "'" "'\\''" _q_cxx "${CMAKE_CXX_COMPILER}")
set(_conf "${_gen}/oshcc.conf")
file(WRITE "${_conf}"
  "# oshcc/oshc++ settings for ${SHMEM_TARGET} (written by libshmem's build). @PREFIX@: the installed prefix;\n"
  "# @LIBDIR@: its lib/${SHMEM_TARGET}.\n"
  "SHMEM_VERSION='${PROJECT_VERSION}'\n"
  "SHMEM_CC='${_q_cc}'\n"
  "SHMEM_CXX='${_q_cxx}'\n"
  "SHMEM_CXX_RUNTIME='${SHMEM_CXX_RUNTIME}'\n"
  "SHMEM_ARCH_FLAGS='${_q_SHMEM_USER_ARCH_FLAGS}'\n"
  "SHMEM_CFLAGS='${_q_SHMEM_USER_CFLAGS}'\n"
  "SHMEM_CXXFLAGS='${_q_SHMEM_USER_CXXFLAGS}'\n"
  "SHMEM_LDFLAGS='${_q_SHMEM_USER_LDFLAGS}'\n"
  "SHMEM_LINKER_SCRIPT='${_lds_name}'\n"
  "SHMEM_DRAM_CODE_SCRIPT='${_dram_name}'\n"
  "SHMEM_LIBS='-lshmem${_port_libs}'\n"
  "SHMEM_NOTE='${_q_SHMEM_TARGET_NOTE}'\n")

# pkg-config: prefix from the .pc file's own directory (pkg-config's pcfiledir), so the prefix can move.
string(REPLACE "@PREFIX@" "\${prefix}" _pc_cflags "${SHMEM_USER_ARCH_FLAGS} ${SHMEM_USER_CFLAGS}")
string(REPLACE "@LIBDIR@" "\${libdir}" _pc_libs "${SHMEM_USER_LDFLAGS} -T\${libdir}/${_lds_name} -lshmem${_port_libs}")
file(WRITE "${_gen}/libshmem-${SHMEM_TARGET}.pc"
  "prefix=\${pcfiledir}/../..\n"
  "includedir=\${prefix}/include\n"
  "libdir=\${prefix}/lib/${SHMEM_TARGET}\n"
  "\n"
  "Name: libshmem-${SHMEM_TARGET}\n"
  "Description: OpenSHMEM for bare-metal cores, built for ${SHMEM_TARGET} (compile with ${CMAKE_C_COMPILER}; C++: ${SHMEM_USER_CXXFLAGS}, link with the C compiler where there is no libstdc++)\n"
  "Version: ${PROJECT_VERSION}\n"
  "Cflags: ${_pc_cflags}\n"
  "Libs: ${_pc_libs}\n")

# The CMake package. libshmem-<target>.cmake defines libshmem::shmem for the target the toolchain file names.
set(_linker_scripts_rel "")
foreach(_lds IN LISTS LINKER_SCRIPTS)
  get_filename_component(_n "${_lds}" NAME)
  list(APPEND _linker_scripts_rel "\${_libshmem_libdir}/${_n}")
endforeach()
string(REPLACE "@LIBDIR@" "\${_libshmem_libdir}" _cm_link "${SHMEM_USER_LDFLAGS}")
separate_arguments(_cm_link UNIX_COMMAND "${_cm_link}")
# The toolchain file already gives CMAKE_EXE_LINKER_FLAGS_INIT; the imported target adds the rest.
separate_arguments(_init_link UNIX_COMMAND "${CMAKE_EXE_LINKER_FLAGS_INIT}")
if(_init_link)
  list(REMOVE_ITEM _cm_link ${_init_link})
endif()
if(_dram_name)
  set(_cm_script "$<IF:$<BOOL:$<TARGET_PROPERTY:SHMEM_DRAM_CODE>>,-T\${_libshmem_libdir}/${_dram_name},-T\${_libshmem_libdir}/${_lds_name}>")
else()
  set(_cm_script "-T\${_libshmem_libdir}/${_lds_name}")
endif()
file(WRITE "${_gen}/libshmem-${SHMEM_TARGET}.cmake"
  "# libshmem::shmem for ${SHMEM_TARGET} (written by libshmem's build; included by libshmemConfig.cmake).\n"
  "set(_libshmem_libdir \"\${_libshmem_prefix}/lib/${SHMEM_TARGET}\")\n"
  "if(NOT TARGET libshmem::shmem)\n"
  "  add_library(libshmem::shmem STATIC IMPORTED)\n"
  "  set_target_properties(libshmem::shmem PROPERTIES\n"
  "    IMPORTED_LOCATION \"\${_libshmem_libdir}/libshmem.a\"\n"
  "    INTERFACE_INCLUDE_DIRECTORIES \"\${_libshmem_prefix}/include\"\n"
  "    INTERFACE_COMPILE_OPTIONS \"-ffunction-sections;-fdata-sections;$<$<COMPILE_LANGUAGE:CXX>:-fno-exceptions;-fno-rtti>\"\n"
  "    INTERFACE_LINK_OPTIONS \"${_cm_script};${_cm_link}\"\n"
  "    INTERFACE_LINK_LIBRARIES \"${SHMEM_PORT_LINK_LIBRARIES}\"\n"
  "    INTERFACE_LINK_DEPENDS \"${_linker_scripts_rel}\")\n"
  "endif()\n"
  "# The target's facts (cmake/target.cmake): its port, PE limit, defaults and capabilities.\n"
  "include(\"\${CMAKE_CURRENT_LIST_DIR}/target.cmake\")\n"
  "shmem_load_target(\"\${CMAKE_CURRENT_LIST_DIR}/targets\" ${SHMEM_TARGET})\n"
  "set(SHMEM_MAX_PES \${SHMEM_MAX_PES} CACHE INTERNAL \"PEs ${SHMEM_TARGET} has at most\")\n"
  "set(SHMEM_CAPABILITIES \"\${SHMEM_CAPABILITIES}\" CACHE INTERNAL \"what ${SHMEM_TARGET} can do\")\n"
  "set(SHMEM_OSHRUN \"\${_libshmem_prefix}/bin/oshrun\" CACHE INTERNAL \"\")\n"
  "set(libshmem_VERSION ${PROJECT_VERSION})\n")

# The toolchain file a user's project is configured with: the port's, naming the target.
file(WRITE "${_gen}/toolchain-${SHMEM_TARGET}.cmake"
  "# Toolchain file for programs built against libshmem's ${SHMEM_TARGET} build installed in this prefix:\n"
  "#   cmake -S . -B build -DCMAKE_TOOLCHAIN_FILE=<prefix>/lib/cmake/libshmem/toolchain-${SHMEM_TARGET}.cmake\n"
  "# then find_package(libshmem REQUIRED) and add_shmem_executable(app SOURCES app.c), or link libshmem::shmem.\n"
  "set(SHMEM_TARGET ${SHMEM_TARGET})\n"
  "include(\"\${CMAKE_CURRENT_LIST_DIR}/port-${SHMEM_PORT_DIR}.cmake\")\n"
  "get_filename_component(_libshmem_toolchain_prefix \"\${CMAKE_CURRENT_LIST_DIR}/../../..\" ABSOLUTE)\n"
  "list(APPEND CMAKE_PREFIX_PATH \"\${_libshmem_toolchain_prefix}\")\n")

include(CMakePackageConfigHelpers)
write_basic_package_version_file("${_gen}/libshmemConfigVersion.cmake"
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)

install(TARGETS libshmem ARCHIVE DESTINATION "${_inst_lib}")
install(FILES ${LINKER_SCRIPTS} "${_conf}" DESTINATION "${_inst_lib}")
install(DIRECTORY "${PROJECT_SOURCE_DIR}/shmem/include/" DESTINATION include FILES_MATCHING PATTERN "*.h")
install(PROGRAMS "${SHMEM_OSHRUN}" DESTINATION bin)
install(PROGRAMS "${PROJECT_SOURCE_DIR}/host_loader/oshcc" DESTINATION bin)
install(PROGRAMS "${PROJECT_SOURCE_DIR}/host_loader/oshcc" DESTINATION bin RENAME oshc++)
install(FILES "${_gen}/libshmem-${SHMEM_TARGET}.pc" DESTINATION lib/pkgconfig)
install(FILES
  "${PROJECT_SOURCE_DIR}/cmake/libshmemConfig.cmake"
  "${_gen}/libshmemConfigVersion.cmake"
  "${_gen}/libshmem-${SHMEM_TARGET}.cmake"
  "${_gen}/toolchain-${SHMEM_TARGET}.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/shmem.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/expect.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/target.cmake"
  DESTINATION "${_inst_cmake}")
install(FILES "${PROJECT_SOURCE_DIR}/cmake/targets/${SHMEM_TARGET}.cmake" DESTINATION "${_inst_cmake}/targets")
install(FILES "${PROJECT_SOURCE_DIR}/cmake/toolchain-${SHMEM_PORT_DIR}.cmake"
  DESTINATION "${_inst_cmake}" RENAME "port-${SHMEM_PORT_DIR}.cmake")
# The list of installed targets: this one is added unless it is there; the first stays the wrappers' default.
install(CODE "
  set(_targets \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/share/libshmem/targets\")
  set(_known \"\")
  if(EXISTS \"\${_targets}\")
    file(STRINGS \"\${_targets}\" _known)
  endif()
  list(FIND _known \"${SHMEM_TARGET}\" _at)  # (no IN_LIST: install scripts run with the oldest policies)
  if(_at EQUAL -1)
    file(APPEND \"\${_targets}\" \"${SHMEM_TARGET}\\n\")
    message(STATUS \"Registered target ${SHMEM_TARGET} in \${_targets}\")
  endif()")
