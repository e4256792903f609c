# Assembles the R package source in the build tree (the package template, the SWIG output and a
# Makevars pointing at the library) and installs it into a private library with R CMD INSTALL.
#   -DSRC= -DPKG= -DSWIG= -DINTERFACE= -DINCLUDES=<dir;dir> -DLIBDIR= -DRLIB= -DR=
file(REMOVE_RECURSE "${PKG}")
file(COPY "${SRC}/" DESTINATION "${PKG}")
file(MAKE_DIRECTORY "${PKG}/src" "${RLIB}")
set(incs "")
foreach(dir IN LISTS INCLUDES)
  list(APPEND incs "-I${dir}")
endforeach()
execute_process(COMMAND "${SWIG}" -r -c++ -module rescue ${incs} -outdir "${PKG}/R" -o "${PKG}/src/rescue_wrap.cpp"
                        "${INTERFACE}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "swig failed")
endif()
file(RENAME "${PKG}/R/rescue.R" "${PKG}/R/rescue_swig.R")
file(COPY "${SRC}/R/rescue.R" DESTINATION "${PKG}/R")
string(JOIN " " cppflags ${incs})
file(WRITE "${PKG}/src/Makevars"
  "PKG_CPPFLAGS = ${cppflags}\nPKG_LIBS = -L${LIBDIR} -lrescue -Wl,-rpath,${LIBDIR}\nCXX_STD = CXX17\n")
# An install interrupted earlier (a killed build) leaves R's lock directory
# behind, and every later install would refuse to run; this build tree is the
# only writer of the private library, so a lock found here is stale.
file(REMOVE_RECURSE "${RLIB}/00LOCK-rescue")
execute_process(COMMAND "${R}" CMD INSTALL --no-test-load --library=${RLIB} "${PKG}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "R CMD INSTALL failed")
endif()
