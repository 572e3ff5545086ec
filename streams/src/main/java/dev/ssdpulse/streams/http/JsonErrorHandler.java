package dev.ssdpulse.streams.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Jetty answers some requests itself, before Javalin sees them (a target that is no URI, a path climbing above
 * the root): this gives those answers the API's JSON error body instead of Jetty's HTML page. Jetty's message is
 * left out: it may name parser internals.
 */
final class JsonErrorHandler extends ErrorHandler {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected void generateResponse(
            Request request, Response response, int code, String message, Throwable cause, Callback callback)
            throws IOException {
        String error = code == 400 ? "malformed request" : HttpStatus.getMessage(code);
        byte[] body = JSON.writeValueAsBytes(
                JSON.createObjectNode().put("error", error).put("status", code));
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
