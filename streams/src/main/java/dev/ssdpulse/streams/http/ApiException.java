package dev.ssdpulse.streams.http;

/** An error answered to the client as {"error": message, "status": status}. */
public final class ApiException extends RuntimeException {
    private final int status;

    public ApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }

    static ApiException notFound(String message) {
        return new ApiException(404, message);
    }

    static ApiException badParameter(String parameter, String why) {
        return new ApiException(400, "parameter '" + parameter + "': " + why);
    }
}
