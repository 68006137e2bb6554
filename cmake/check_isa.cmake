# Every instruction of every program image of a build tree is one that oshrun's own simulator of the target executes
# (cmake -P; capability simulated_isa): for each *.elf under DIR (outside CMakeFiles), oshrun --dry-run warns of
# any it lacks ("... does not execute: <mnemonics>"), and this fails listing them. The images hold the library, the
# tests, examples and benchmarks, and what they link of the C library and libgcc.
#   -DOSHRUN=<oshrun> -DTARGET=tilegx -DDIR=<build tree>
foreach(v OSHRUN TARGET DIR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "check_isa.cmake: -D${v}=... is required")
  endif()
endforeach()
include("${CMAKE_CURRENT_LIST_DIR}/tree_images.cmake")
set(lacking "")
foreach(image IN LISTS images)
  execute_process(COMMAND "${OSHRUN}" --target ${TARGET} --dry-run -np 1 "${image}"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    list(APPEND lacking "${image}: oshrun --dry-run failed (${rc}): ${err}")
  elseif(err MATCHES "does not execute")
    list(APPEND lacking "${err}")
  endif()
endforeach()
if(lacking)
  list(JOIN lacking "\n" lacking)
  message(FATAL_ERROR "${lacking}")
endif()
message(STATUS "${n} images: the ${TARGET} simulator executes every instruction in them")
