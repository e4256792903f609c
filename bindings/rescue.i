/* SWIG interface of the RESCUE bindings (Java, C#, Python, R).
 *
 * It wraps the header-only facade rescue.hpp, which uses nothing but the C ABI (rescue.h).
 * The module name is given on the SWIG command line for each language.
 * Per-language sections below:
 *  - errors: a failed call raises the language's own error type with the library's message
 *    and the status code (Java RescueException, C# RescueException, Python RescueError,
 *    R an error condition whose message starts with the status);
 *  - numeric vectors: double[] / int[] in Java and C#, sequences and tuples in Python,
 *    numeric vectors in R;
 *  - release: Java proxies are AutoCloseable without finalize(), C# proxies are IDisposable;
 *    a method called after close raises the error type instead of touching freed memory. */
%module rescue

%{
#include <cfenv>
#include <cstdio>
#include "rescue.hpp"

/* Host runtimes may change the floating-point environment (Mono sets the x87 unit to double
 * precision, for one), which would change the library's results in the last bits. Every call
 * runs in the default environment, so all languages get exactly the numbers C gets. */
struct RescueFpEnvironment {
  std::fenv_t saved;
  RescueFpEnvironment() {
    std::fegetenv(&saved);
    std::fesetenv(FE_DFL_ENV);
  }
  ~RescueFpEnvironment() { std::fesetenv(&saved); }
  RescueFpEnvironment(const RescueFpEnvironment&) = delete;
  RescueFpEnvironment& operator=(const RescueFpEnvironment&) = delete;
};
%}

%include <std_string.i>
%include <std_vector.i>

/* Result structs are read-only views; their members are wrapped as values. */
%naturalvar;
%immutable;

/* Helpers that raise the language's error type; defined per language below. */
#if defined(SWIGPYTHON)
%{
static PyObject* rescue_error_type = nullptr;
static void rescue_raise(int status, const char* message) {
  PyObject* exc = PyObject_CallFunction(rescue_error_type, "s", message);
  if (!exc) return;
  PyObject* code = PyLong_FromLong(status);
  if (code) {
    PyObject_SetAttrString(exc, "status", code);
    Py_DECREF(code);
  }
  PyErr_SetObject(rescue_error_type, exc);
  Py_DECREF(exc);
}
%}
%init %{
  rescue_error_type = PyErr_NewExceptionWithDoc("rescue.RescueError",
      "A failed RESCUE call; str() is the library's message, .status the rescue_status code.",
      PyExc_RuntimeError, nullptr);
  Py_INCREF(rescue_error_type);
  PyModule_AddObject(m, "RescueError", rescue_error_type);
%}
%define RESCUE_RAISE(status, message)
  rescue_raise(status, message); SWIG_fail;
%enddef

#elif defined(SWIGJAVA)
%{
static void rescue_raise(JNIEnv* jenv, int status, const char* message) {
  jclass cls = jenv->FindClass("org/rescue/RescueException");
  if (!cls) return;  /* NoClassDefFoundError is pending */
  jmethodID ctor = jenv->GetMethodID(cls, "<init>", "(ILjava/lang/String;)V");
  jstring text = jenv->NewStringUTF(message);
  if (!ctor || !text) return;
  jobject exc = jenv->NewObject(cls, ctor, (jint)status, text);
  if (exc) jenv->Throw(static_cast<jthrowable>(exc));
}
%}
%define RESCUE_RAISE(status, message)
  rescue_raise(jenv, status, message); return $null;
%enddef

#elif defined(SWIGCSHARP)
%{
typedef void (SWIGSTDCALL* rescue_raise_fn)(int, const char*);
static rescue_raise_fn rescue_raise_callback = nullptr;
static void rescue_raise(int status, const char* message) {
  if (rescue_raise_callback) rescue_raise_callback(status, message);
  else SWIG_CSharpSetPendingException(SWIG_CSharpApplicationException, message);
}
extern "C" SWIGEXPORT void SWIGSTDCALL RescueRegisterErrorCallback(rescue_raise_fn fn) { rescue_raise_callback = fn; }
%}
%define RESCUE_RAISE(status, message)
  rescue_raise(status, message); return $null;
%enddef

#elif defined(SWIGR)
/* R errors unwind with longjmp, so the message is copied out of the C++ handler first. */
%{
static char rescue_r_message[4096];
%}
%define RESCUE_RAISE(CODE, TEXT)
  std::snprintf(rescue_r_message, sizeof rescue_r_message, "[rescue status %d] %s", CODE, TEXT); rescue_failed = true;
%enddef
#endif

#if defined(SWIGR)
%exception {
  bool rescue_failed = false;
  {
    RescueFpEnvironment rescue_fp_environment;
    try {
      $action
    } catch (const rescue_binding::Error& e) {
      RESCUE_RAISE(e.status(), e.what())
    } catch (const std::exception& e) {
      RESCUE_RAISE(RESCUE_ERR_INTERNAL, e.what())
    }
  }
  if (rescue_failed) Rf_error("%s", rescue_r_message);
}
#else
%exception {
  RescueFpEnvironment rescue_fp_environment;
  try {
    $action
  } catch (const rescue_binding::Error& e) {
    RESCUE_RAISE(e.status(), e.what())
  } catch (const std::exception& e) {
    RESCUE_RAISE(RESCUE_ERR_INTERNAL, e.what())
  }
}
#endif

/* Calling a method on an object already released (Java close(), C# Dispose()) raises an error. */
#if defined(SWIGJAVA) || defined(SWIGCSHARP)
%typemap(check) rescue_binding::Optimizer* self, rescue_binding::Problem* self,
                const rescue_binding::Optimizer* self, const rescue_binding::Problem* self {
  if (!$1) { RESCUE_RAISE(RESCUE_ERR_INVALID_STATE, "the object is closed") }
}
#endif

/* ---- Java ---------------------------------------------------------------------------------- */
#if defined(SWIGJAVA)
%define RESCUE_JAVA_ARRAY(CTYPE, JNITYPE, JTYPE, JARRAY, GETREGION, SETREGION, NEWARRAY)
%typemap(jni) std::vector<CTYPE>, const std::vector<CTYPE>& #JNITYPE
%typemap(jtype) std::vector<CTYPE>, const std::vector<CTYPE>& #JARRAY
%typemap(jstype) std::vector<CTYPE>, const std::vector<CTYPE>& #JARRAY
%typemap(javain) const std::vector<CTYPE>& "$javainput"
%typemap(javaout) std::vector<CTYPE>, const std::vector<CTYPE>& { return $jnicall; }
%typemap(in) const std::vector<CTYPE>& (std::vector<CTYPE> tmp) {
  if (!$input) {
    SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "null array");
    return $null;
  }
  const jsize n = jenv->GetArrayLength($input);
  tmp.resize(static_cast<size_t>(n));
  if (n > 0) jenv->GETREGION($input, 0, n, reinterpret_cast<JTYPE*>(tmp.data()));
  $1 = &tmp;
}
%typemap(out) std::vector<CTYPE> {
  $result = jenv->NEWARRAY(static_cast<jsize>($1.size()));
  if ($result && !$1.empty()) jenv->SETREGION($result, 0, static_cast<jsize>($1.size()), reinterpret_cast<const JTYPE*>($1.data()));
}
%typemap(out) const std::vector<CTYPE>& {
  $result = jenv->NEWARRAY(static_cast<jsize>($1->size()));
  if ($result && !$1->empty()) jenv->SETREGION($result, 0, static_cast<jsize>($1->size()), reinterpret_cast<const JTYPE*>($1->data()));
}
%enddef
RESCUE_JAVA_ARRAY(double, jdoubleArray, jdouble, double[], GetDoubleArrayRegion, SetDoubleArrayRegion, NewDoubleArray)
RESCUE_JAVA_ARRAY(int, jintArray, jint, int[], GetIntArrayRegion, SetIntArrayRegion, NewIntArray)
/* Labels: String[] both ways. */
%typemap(jni) std::vector<std::string>, const std::vector<std::string>& "jobjectArray"
%typemap(jtype) std::vector<std::string>, const std::vector<std::string>& "String[]"
%typemap(jstype) std::vector<std::string>, const std::vector<std::string>& "String[]"
%typemap(javain) const std::vector<std::string>& "$javainput"
%typemap(javaout) std::vector<std::string> { return $jnicall; }
%typemap(in) const std::vector<std::string>& (std::vector<std::string> tmp) {
  if (!$input) {
    SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "null array");
    return $null;
  }
  const jsize n = jenv->GetArrayLength($input);
  for (jsize i = 0; i < n; ++i) {
    jstring js = static_cast<jstring>(jenv->GetObjectArrayElement($input, i));
    if (!js) {
      SWIG_JavaThrowException(jenv, SWIG_JavaNullPointerException, "null label");
      return $null;
    }
    const char* c = jenv->GetStringUTFChars(js, nullptr);
    if (!c) return $null;  /* OutOfMemoryError is pending */
    tmp.emplace_back(c);
    jenv->ReleaseStringUTFChars(js, c);
    jenv->DeleteLocalRef(js);
  }
  $1 = &tmp;
}
%typemap(out) std::vector<std::string> {
  const std::vector<std::string>& labels = $1;
  $result = jenv->NewObjectArray(static_cast<jsize>(labels.size()), jenv->FindClass("java/lang/String"), nullptr);
  for (jsize i = 0; $result && i < static_cast<jsize>(labels.size()); ++i) {
    jstring js = jenv->NewStringUTF(labels[static_cast<size_t>(i)].c_str());
    jenv->SetObjectArrayElement($result, i, js);
    jenv->DeleteLocalRef(js);
  }
}

/* The handles are released deterministically through try-with-resources, never through
 * finalize(); the small result values (Suggestion, ParetoSet, ...) are left to the collector. */
%typemap(javafinalize) rescue_binding::Optimizer, rescue_binding::Problem ""
%typemap(javainterfaces) rescue_binding::Optimizer, rescue_binding::Problem "AutoCloseable"
%ignore rescue_binding::Optimizer::close;
%ignore rescue_binding::Problem::close;
%ignore rescue_binding::Optimizer::closed;
%ignore rescue_binding::Problem::closed;
%typemap(javacode) rescue_binding::Problem %{
  /** Frees the native object now; calling it again is harmless. */
  @Override
  public void close() {
    delete();
  }

  /** Whether close() was called. */
  public boolean isClosed() {
    return swigCPtr == 0;
  }
%}
%typemap(javacode) rescue_binding::Optimizer %{
  /** Frees the native object now; calling it again is harmless. */
  @Override
  public void close() {
    delete();
  }

  /** Whether close() was called. */
  public boolean isClosed() {
    return swigCPtr == 0;
  }

  /** A simulator for {@link #optimize}: objective values of configuration x at a fidelity. */
  @FunctionalInterface
  public interface Simulator {
    double[] evaluate(double[] x, double fidelity) throws Exception;
  }

  /**
   * Runs the ask/tell loop until the budget is spent, calling the simulator for each suggestion.
   * An exception from the simulator marks the evaluation as failed and is thrown again.
   * @return the Pareto set at the end
   */
  public ParetoSet optimize(Simulator simulator) throws Exception {
    while (!done()) {
      Suggestion s;
      try {
        s = suggest();
      } catch (RescueException e) {
        if (e.getStatus() == RescueConstants.RESCUE_ERR_BUDGET_EXHAUSTED) break;
        throw e;
      }
      double[] y;
      try {
        y = simulator.evaluate(s.getX(), s.getFidelity());
      } catch (Exception e) {
        fail(s.getTicket());
        throw e;
      }
      observe(s.getTicket(), y);
    }
    return pareto();
  }
%}
%pragma(java) jniclasscode=%{
  static {
    System.loadLibrary("rescue_jni");
  }
%}
%newobject rescue_binding::Optimizer::load;
%newobject rescue_binding::Optimizer::loadFile;
%newobject rescue_binding::Optimizer::journalResume;
%ignore rescue_binding::Error;
%ignore rescue_binding::Problem::get;
#endif

/* ---- C# ------------------------------------------------------------------------------------ */
#if defined(SWIGCSHARP)
%template(DoubleVector) std::vector<double>;
%template(IntVector) std::vector<int>;
%define RESCUE_CS_ARRAY(CTYPE, VECTOR, CSTYPE)
%typemap(cstype) std::vector<CTYPE>, const std::vector<CTYPE>& #CSTYPE "[]"
%typemap(csin) const std::vector<CTYPE>& "VECTOR.getCPtr(new VECTOR($csinput))"
%typemap(csout, excode=SWIGEXCODE) std::vector<CTYPE> {
    using (var v = new VECTOR($imcall, true)) {$excode
      var a = new CSTYPE[v.Count];
      v.CopyTo(a);
      return a;
    }
  }
%typemap(csvarout, excode=SWIGEXCODE2) const std::vector<CTYPE>& %{
    get {
      using (var v = new VECTOR($imcall, false)) {$excode
        var a = new CSTYPE[v.Count];
        v.CopyTo(a);
        return a;
      }
    } %}
%enddef
RESCUE_CS_ARRAY(double, DoubleVector, double)
RESCUE_CS_ARRAY(int, IntVector, int)
%template(StringVector) std::vector<std::string>;
RESCUE_CS_ARRAY(std::string, StringVector, string)
/* Marshalling ends a string at its first NUL, so one holding a NUL would reach the library as a
 * shorter, different name or path: refused here, as rescue.hpp refuses it for the other bindings. */
%typemap(csin, pre="    if ($csinput != null && $csinput.IndexOf('\\0') >= 0)\n      throw new global::Rescue.RescueException(Library.RESCUE_ERR_INVALID_ARGUMENT, \"a name, path or text holds a NUL character\");") const std::string& "$csinput"

%rename("%(firstuppercase)s", %$isfunction) "";
%rename("%(firstuppercase)s", %$ismember, %$isvariable) "";
%newobject rescue_binding::Optimizer::load;
%newobject rescue_binding::Optimizer::loadFile;
%newobject rescue_binding::Optimizer::journalResume;
%ignore rescue_binding::Error;
%ignore rescue_binding::Problem::get;
%typemap(cscode) rescue_binding::Optimizer %{
  /// <summary>
  /// Runs the ask/tell loop until the budget is spent, calling the simulator (configuration,
  /// fidelity) -> objective values for each suggestion. An exception from the simulator, or a
  /// result the library refuses, marks the evaluation as failed and is thrown again. Returns
  /// the Pareto set at the end.
  /// </summary>
  public ParetoSet Optimize(global::System.Func<double[], double, double[]> simulator) {
    while (!Done()) {
      Suggestion s;
      try {
        s = Suggest();
      } catch (RescueException e) when (e.Status == Library.RESCUE_ERR_BUDGET_EXHAUSTED) {
        break;
      }
      double[] y;
      try {
        y = simulator(s.X, s.Fidelity);
      } catch {
        Fail(s.Ticket);
        throw;
      }
      try {
        Observe(s.Ticket, y);
      } catch (RescueException) {
        Fail(s.Ticket);  // a result the library refuses fails the evaluation, not left pending
        throw;
      }
    }
    return Pareto();
  }
%}
/* The error type: the native side calls back into managed code to set it pending. */
%pragma(csharp) imclasscode=%{
  public delegate void RescueRaiseDelegate(int status, string message);
  static readonly RescueRaiseDelegate rescueRaise = (status, message) =>
      SWIGPendingException.Set(new global::Rescue.RescueException(status, message));
  [global::System.Runtime.InteropServices.DllImport("$dllimport", EntryPoint="RescueRegisterErrorCallback")]
  static extern void RescueRegisterErrorCallback(RescueRaiseDelegate fn);
  // Registered by a static field initializer, which the class's static constructor runs
  // before any native call.
  internal sealed class RescueErrorHelper {
    public RescueErrorHelper() {
      RescueRegisterErrorCallback(rescueRaise);
    }
  }
  internal static readonly RescueErrorHelper rescueErrorHelper = new RescueErrorHelper();
%}
#endif

/* ---- Python -------------------------------------------------------------------------------- */
#if defined(SWIGPYTHON)
%template(DoubleVector) std::vector<double>;
%template(IntVector) std::vector<int>;
%template(StringVector) std::vector<std::string>;
%newobject rescue_binding::Optimizer::load;
%newobject rescue_binding::Optimizer::loadFile;
%newobject rescue_binding::Optimizer::journalResume;
%ignore rescue_binding::Error;
%ignore rescue_binding::Problem::get;
#endif

/* ---- R ------------------------------------------------------------------------------------- */
#if defined(SWIGR)
%template(DoubleVector) std::vector<double>;
%template(IntVector) std::vector<int>;
%template(StringVector) std::vector<std::string>;
%newobject rescue_binding::Optimizer::load;
%newobject rescue_binding::Optimizer::loadFile;
%newobject rescue_binding::Optimizer::journalResume;
%ignore rescue_binding::Error;
%ignore rescue_binding::Problem::get;
#endif

/* Status codes (values taken from rescue.h when the wrapper is compiled). */
%constant int RESCUE_OK = RESCUE_OK;
%constant int RESCUE_ERR_NULL_POINTER = RESCUE_ERR_NULL_POINTER;
%constant int RESCUE_ERR_INVALID_ARGUMENT = RESCUE_ERR_INVALID_ARGUMENT;
%constant int RESCUE_ERR_OUT_OF_RANGE = RESCUE_ERR_OUT_OF_RANGE;
%constant int RESCUE_ERR_NON_FINITE = RESCUE_ERR_NON_FINITE;
%constant int RESCUE_ERR_SIZE_MISMATCH = RESCUE_ERR_SIZE_MISMATCH;
%constant int RESCUE_ERR_BUFFER_TOO_SMALL = RESCUE_ERR_BUFFER_TOO_SMALL;
%constant int RESCUE_ERR_UNKNOWN_TICKET = RESCUE_ERR_UNKNOWN_TICKET;
%constant int RESCUE_ERR_UNKNOWN_NAME = RESCUE_ERR_UNKNOWN_NAME;
%constant int RESCUE_ERR_INVALID_STATE = RESCUE_ERR_INVALID_STATE;
%constant int RESCUE_ERR_BUDGET_EXHAUSTED = RESCUE_ERR_BUDGET_EXHAUSTED;
%constant int RESCUE_ERR_IO = RESCUE_ERR_IO;
%constant int RESCUE_ERR_CORRUPT_CHECKPOINT = RESCUE_ERR_CORRUPT_CHECKPOINT;
%constant int RESCUE_ERR_UNSUPPORTED_VERSION = RESCUE_ERR_UNSUPPORTED_VERSION;
%constant int RESCUE_ERR_NUMERICAL = RESCUE_ERR_NUMERICAL;
%constant int RESCUE_ERR_OUT_OF_MEMORY = RESCUE_ERR_OUT_OF_MEMORY;
%constant int RESCUE_ERR_CALLBACK = RESCUE_ERR_CALLBACK;
%constant int RESCUE_ERR_INTERNAL = RESCUE_ERR_INTERNAL;
/* Option kinds, objective and constraint senses. */
%constant int RESCUE_CONTINUOUS = RESCUE_CONTINUOUS;
%constant int RESCUE_INTEGER = RESCUE_INTEGER;
%constant int RESCUE_LOG_SCALE = RESCUE_LOG_SCALE;
%constant int RESCUE_CATEGORICAL = RESCUE_CATEGORICAL;
%constant int RESCUE_MINIMIZE = RESCUE_MINIMIZE;
%constant int RESCUE_MAXIMIZE = RESCUE_MAXIMIZE;
%constant int RESCUE_GEQ = RESCUE_GEQ;
%constant int RESCUE_LEQ = RESCUE_LEQ;
%constant int RESCUE_PARAM_INTEGER = RESCUE_PARAM_INTEGER;
%constant int RESCUE_PARAM_CLOSED = RESCUE_PARAM_CLOSED;
%constant int RESCUE_PARAM_OPEN = RESCUE_PARAM_OPEN;

%include "rescue.hpp"
