package dev.gq.actors.socket;

import dev.gq.api.GqApi;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * A {@link GqApi} for tests of the socket server: the interface's default methods (what every
 * command asks first) answer as a daemon without the feature would; every other call goes to
 * {@code answer}, which throws {@link UnsupportedOperationException} for what it does not know.
 */
final class AnsweringApi {
  private AnsweringApi() {}

  /** One call of the API: the method and its arguments, answered or refused. */
  interface Answer {
    Object answer(Method method, Object[] args) throws Throwable;
  }

  static GqApi of(Answer answer) {
    InvocationHandler h = (proxy, method, args) -> method.isDefault()
        ? InvocationHandler.invokeDefault(proxy, method, args)
        : answer.answer(method, args);
    return (GqApi) Proxy.newProxyInstance(GqApi.class.getClassLoader(), new Class<?>[] {GqApi.class}, h);
  }
}
