export default function Help() {
  return (
    <p className="help">
      Shipping rules: <a href="https://example.com/shipping">example.com/shipping</a>
    </p>
  );
}
