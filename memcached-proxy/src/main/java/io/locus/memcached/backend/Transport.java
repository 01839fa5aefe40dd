package io.locus.memcached.backend;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.SelectStrategyFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollMode;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.ThreadFactory;

/**
 * Netty's native epoll transport on Linux (fewer system calls and wake-ups per request than the JDK selector), the
 * JDK's NIO elsewhere or when {@code -Dlocus.transport=nio} is set. Event loops and channels must come from the same
 * transport, so every choice is made here once.
 */
public final class Transport {
    static final boolean EPOLL = !"nio".equals(System.getProperty("locus.transport")) && Epoll.isAvailable();

    private Transport() {}

    public static EventLoopGroup group(int threads, ThreadFactory factory) {
        return EPOLL ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
    }

    /** Event loops that poll for up to {@code busyPollMicros} before sleeping ({@link BusyPollStrategy}); 0 = never. */
    public static EventLoopGroup group(int threads, ThreadFactory factory, int busyPollMicros) {
        if (busyPollMicros == 0) {
            return group(threads, factory);
        }
        SelectStrategyFactory strategy = BusyPollStrategy.factory(busyPollMicros);
        return EPOLL
                ? new EpollEventLoopGroup(threads, factory, strategy)
                : new NioEventLoopGroup(threads, factory, SelectorProvider.provider(), strategy);
    }

    public static Class<? extends ServerSocketChannel> serverChannel() {
        return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    static Class<? extends SocketChannel> clientChannel() {
        return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /**
     * Level-triggered epoll on every proxy socket. Why: in edge-triggered mode Netty must read again after every read
     * that returned bytes, until the socket says EAGAIN; a memcached request or reply almost always fits one read, so
     * that is one wasted system call per readiness event on each side of the proxy.
     */
    static <B extends io.netty.bootstrap.AbstractBootstrap<B, ?>> B levelTriggered(B bootstrap) {
        return EPOLL ? bootstrap.option(EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED) : bootstrap;
    }

    public static io.netty.bootstrap.ServerBootstrap levelTriggeredChildren(
            io.netty.bootstrap.ServerBootstrap bootstrap) {
        return EPOLL ? bootstrap.childOption(EpollChannelOption.EPOLL_MODE, EpollMode.LEVEL_TRIGGERED) : bootstrap;
    }

    public static String name() {
        return EPOLL ? "epoll" : "nio";
    }
}
