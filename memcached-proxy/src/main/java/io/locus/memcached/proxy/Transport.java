package io.locus.memcached.proxy;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.concurrent.ThreadFactory;

/**
 * Netty's native epoll transport on Linux (fewer system calls and wake-ups per request than the JDK selector), the
 * JDK's NIO elsewhere or when {@code -Dlocus.transport=nio} is set. Event loops and channels must come from the same
 * transport, so every choice is made here once.
 */
final class Transport {
  static final boolean EPOLL = !"nio".equals(System.getProperty("locus.transport")) && Epoll.isAvailable();

  private Transport() {}

  static EventLoopGroup group(int threads, ThreadFactory factory) {
    return EPOLL ? new EpollEventLoopGroup(threads, factory) : new NioEventLoopGroup(threads, factory);
  }

  static Class<? extends ServerSocketChannel> serverChannel() {
    return EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
  }

  static Class<? extends SocketChannel> clientChannel() {
    return EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
  }

  static String name() {
    return EPOLL ? "epoll" : "nio";
  }
}
