/**
 * What every command shares below the composition root ({@code Main}): the exception for input a command cannot
 * use, which {@code Main} reports as one line, and the way a long-running command waits until it is stopped.
 */
package dev.ssdpulse.cli.command;
