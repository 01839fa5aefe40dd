/**
 * What every Locus operator tool ({@code locus-drop}, {@code locus-cast}, {@code locus-virtcache}) shares, so that
 * they behave alike: {@link io.locus.cli.ToolRunner} runs a picocli command with one error contract (a message on
 * stderr, and with {@code --json} one JSON document on stdout also on failure), {@link io.locus.cli.OutputOptions} is
 * the {@code --json} and {@code -v} mixin, {@link io.locus.cli.JsonOutput} writes JSON, {@link io.locus.cli.Progress}
 * draws progress bars on stderr and {@link io.locus.cli.BuildVersion} answers {@code --version} with the build's
 * version.
 */
package io.locus.cli;
