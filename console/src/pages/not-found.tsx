/** Any /console/ path the console does not know. */
export function NotFound() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        This console page does not exist. <a href="/console/">Go to the apps</a>.
      </p>
    </section>
  );
}
