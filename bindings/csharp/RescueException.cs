namespace Rescue {
  /// <summary>A failed RESCUE call: the library's message and its status code (a Library.RESCUE_* constant).</summary>
  public class RescueException : global::System.Exception {
    public RescueException(int status, string message) : base(message) {
      Status = status;
    }

    /// <summary>The rescue_status code, e.g. Library.RESCUE_ERR_UNKNOWN_NAME.</summary>
    public int Status { get; }
  }
}
