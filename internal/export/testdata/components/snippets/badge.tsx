type Props = { version: string; channel?: "stable" | "beta" };

export const VersionBadge = ({ version, channel = "stable" }: Props) => (
  <span className={`version-badge version-${channel}`} title={`Available since ${version}`}>
    v{version}
  </span>
);
