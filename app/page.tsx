export default function Home() {
  return (
    <main style={{ maxWidth: 720, margin: '48px auto', padding: '0 16px', lineHeight: 1.5 }}>
      <h1>Questline</h1>
      <p>Missions, campaigns and rewards for games. The API lives under <code>/v1</code>.</p>
      <ul>
        <li>
          <a href="/v1/openapi.json">OpenAPI 3.1 document</a>
        </li>
      </ul>
    </main>
  );
}
