package dev.ssdpulse.platform.testing;

import dev.ssdpulse.platform.LocalStack;

/** The embedded broker and registry of the platform module, in a temporary directory. */
final class EmbeddedTestStack implements TestStack, AutoCloseable {
    private final LocalStack stack;

    EmbeddedTestStack() {
        this.stack = LocalStack.start();
    }

    @Override
    public String bootstrapServers() {
        return stack.bootstrapServers();
    }

    @Override
    public String schemaRegistryUrl() {
        return stack.schemaRegistryUrl();
    }

    @Override
    public String backend() {
        return "embedded";
    }

    long startMs() {
        return stack.startDuration().toMillis();
    }

    @Override
    public void close() {
        stack.close();
    }
}
