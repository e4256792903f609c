package org.rescue;

/** A failed RESCUE call: the library's message and its status code (a RESCUE_* constant). */
public class RescueException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int status;

  public RescueException(int status, String message) {
    super(message);
    this.status = status;
  }

  /** The rescue_status code, e.g. {@link RescueConstants#RESCUE_ERR_UNKNOWN_NAME}. */
  public int getStatus() {
    return status;
  }
}
