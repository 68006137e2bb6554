# Every program image of a build tree is of the target's machine (cmake -P): each *.elf under DIR (outside
# CMakeFiles) has the ELF machine MACHINE as readelf names it (its name begins with MACHINE). Catches an image built with the wrong compiler or for
# the wrong chip of a port, which nothing may run to find out (TILE).
#   -DREADELF=readelf -DDIR=<build tree> -DMACHINE="Tilera TILE-Gx"
foreach(v READELF DIR MACHINE)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_images.cmake: -D${v}=... is required")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/tree_images.cmake")
set(wrong "")
foreach(image IN LISTS images)
  execute_process(COMMAND "${READELF}" -h "${image}" RESULT_VARIABLE rc OUTPUT_VARIABLE header ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR NOT header MATCHES "Machine: +([^\n]*)")
    list(APPEND wrong "${image}: not an ELF file readelf reads (${err})")
    continue()
  endif()
  set(machine "${CMAKE_MATCH_1}")
  string(FIND "${machine}" "${MACHINE}" at)  # readelf may say more after the name
  if(NOT at EQUAL 0)
    list(APPEND wrong "${image}: machine '${machine}', expected '${MACHINE}'")
  endif()
endforeach()
if(wrong)
  list(JOIN wrong "\n" wrong)
  message(FATAL_ERROR "${wrong}")
endif()
message(STATUS "${n} images, every one ${MACHINE}")
