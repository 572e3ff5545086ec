package dev.ssdpulse.cli.command;

/** A command was given input it cannot use; the message says which and why. */
public final class UserInputException extends RuntimeException {
    public UserInputException(String message) {
        super(message);
    }

    public UserInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
