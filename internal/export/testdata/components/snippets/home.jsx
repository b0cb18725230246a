// The home page's building blocks.
export const Hero = ({ title, tagline, cta, children }) => (
  <section className="hero">
    <h1 className="hero-title">{title}</h1>
    <p className="hero-tagline">{tagline}</p>
    <div className="hero-body">{children}</div>
    {cta && (
      <a className="hero-cta" href={cta.href}>
        {cta.label}
      </a>
    )}
  </section>
);

export const FeatureGrid = ({ columns = 2, items = [] }) => (
  <div className="feature-grid" style={{ gridTemplateColumns: `repeat(${columns}, 1fr)`, gap: 16 }}>
    {items.map((item) => (
      <div key={item.name} className="feature">
        <h3>{item.name}</h3>
        <p>{item.text}</p>
      </div>
    ))}
  </div>
);
