# For the checks of a build tree's images (cmake -P scripts, include()d): `images`, every *.elf under DIR outside
# CMakeFiles, and `n`, their count; fails if there is none (nothing was built).
file(GLOB_RECURSE images LIST_DIRECTORIES false "${DIR}/*.elf")
list(FILTER images EXCLUDE REGEX "/CMakeFiles/")
list(LENGTH images n)
if(n EQUAL 0)
  message(FATAL_ERROR "no *.elf under ${DIR}: nothing was built")
endif()
